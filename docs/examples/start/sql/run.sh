psql -qAt -f hello.sql
