# The seed's per-run bridge as its article measured it: Python's standard
# library, a ThreadingHTTPServer on 127.0.0.1, a bearer token compared in
# constant time, JSON-RPC parsed per request, memory_search answered with a
# canned text. Prints the port, the token, then serves until stdin closes.
import hmac, json, secrets, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOKEN = secrets.token_hex(32)
ALLOWED = ["memory_search"]


def rpc_ok(i, result):
    return {"jsonrpc": "2.0", "id": i, "result": result}


def rpc_err(i, code, message):
    return {"jsonrpc": "2.0", "id": i, "error": {"code": code, "message": message}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, obj=None):
        body = b"" if obj is None else json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        auth = self.headers.get("Authorization", "")
        tok = auth[7:].strip() if auth[:7].lower() == "bearer " else ""
        if not hmac.compare_digest(tok.encode(), TOKEN.encode()):
            return self.send(401, {"error": "unauthorized"})
        req = json.loads(body)
        i, method = req.get("id"), req.get("method", "")
        if i is None or method.startswith("notifications/"):
            return self.send(202)
        if method == "tools/call":
            p = req.get("params") or {}
            name = p.get("name") or ""
            if name not in ALLOWED:
                return self.send(200, rpc_err(i, -32601, f"tool '{name}' is not available to this agent"))
            text = "Release checklist: tag, build, notarize, upload"
            return self.send(200, rpc_ok(i, {"content": [{"type": "text", "text": text}]}))
        return self.send(200, rpc_err(i, -32601, "method not found"))


httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(httpd.server_address[1], TOKEN, flush=True)
threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()
sys.stdin.read()
httpd.shutdown()
