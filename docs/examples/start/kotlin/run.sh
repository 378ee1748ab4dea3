mvn -q compile exec:java
