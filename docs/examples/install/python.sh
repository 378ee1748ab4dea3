pip install samekey
