extensions/postgres/scripts/extension.sh install
