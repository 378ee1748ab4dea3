git clone https://github.com/samekey/samekey
cd samekey
./dev build
export SAMEKEY=$PWD
