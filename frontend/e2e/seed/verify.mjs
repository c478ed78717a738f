// Seeds the Verify spec: Codex's service is made unreachable the way a
// network or proxy outage does it, whatever network this machine has —
// HTTPS goes through a proxy port nothing listens on. Loopback (the fake
// model the other specs' Claude Code talks to) bypasses it.
import net from 'node:net';

function closedPort() {
  return new Promise((ok, fail) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });
}

export default async function () {
  const proxy = `http://127.0.0.1:${await closedPort()}`;
  return { env: { HTTPS_PROXY: proxy, https_proxy: proxy, NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost' } };
}
