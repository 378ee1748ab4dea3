npm install samekey
