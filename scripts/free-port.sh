#!/usr/bin/env bash
# Prints a TCP port free on 127.0.0.1 now (the kernel's pick for port 0), for a test's
# throwaway server. Another process may take it before the server binds: the tests that
# use it start one server at a time.
exec python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
