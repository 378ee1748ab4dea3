python3 -m venv .venv
.venv/bin/pip install "$SAMEKEY"/target/python-dist/samekey-0.2.0-*.whl
