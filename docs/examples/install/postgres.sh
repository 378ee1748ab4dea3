curl -fLO https://github.com/samekey/samekey/releases/download/v0.2.0/postgresql-17-samekey_0.2.0-1_amd64.deb
sudo apt install ./postgresql-17-samekey_0.2.0-1_amd64.deb
psql -c 'CREATE EXTENSION samekey'
