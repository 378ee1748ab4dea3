.venv/bin/python hello.py
