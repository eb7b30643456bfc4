"""One address in front of several servers: a tiny HTTP proxy that sends each request to the next
server in turn (round robin), as a load balancer in front of two machines would, and says which
one answered (`X-Backend: <index>`), so that a test can see its requests land on every server.
The reads and the writes take turns separately: two POSTs one after the other go to two servers,
whatever the long polls beside them do.

One connection per request both ways (HTTP/1.0 style, `Connection: close`); bodies are read
whole (Content-Length), which is all the online table's seat client sends.
"""

from __future__ import annotations

import http.client
import itertools
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: hop-by-hop headers a proxy does not pass on (RFC 9110 7.6.1)
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"}


class RoundRobinProxy:
    def __init__(self, backends: list[tuple[str, int]], port: int) -> None:
        self.backends = backends
        self.port = port
        self.answered: list[int] = [0] * len(backends)  # requests answered by each server
        turns = {"read": itertools.cycle(range(len(backends))), "write": itertools.cycle(range(len(backends)))}
        lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def _forward(self) -> None:
                with lock:
                    index = next(turns["read" if self.command in ("GET", "HEAD") else "write"])
                host, port = proxy.backends[index]
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                upstream = http.client.HTTPConnection(host, port, timeout=60)
                try:
                    upstream.request(self.command, self.path, body=body, headers=headers)
                    response = upstream.getresponse()
                    content = response.read()
                    self.send_response(response.status)
                    for key, value in response.getheaders():
                        if key.lower() not in HOP_BY_HOP and key.lower() != "content-length":
                            self.send_header(key, value)
                    self.send_header("Content-Length", str(len(content)))
                    self.send_header("X-Backend", str(index))
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(content)
                    with lock:
                        proxy.answered[index] += 1
                finally:
                    upstream.close()

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _forward

            def log_message(self, format, *args):  # noqa: A002 - the base class's signature
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> RoundRobinProxy:
        self.thread.start()
        return self

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
