samekey ulid --time 2024-05-01T12:00:00Z --namespace posts hello-world en
