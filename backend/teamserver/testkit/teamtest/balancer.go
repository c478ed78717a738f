package teamtest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/csv"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Balancer is Debian's haproxy terminating TLS (a certificate from a
// throw-away CA) in front of team server replicas, as an operator runs it:
// round robin, /readyz health checks, retries on another replica when one
// refuses a connection.
type Balancer struct {
	URL    string       // https://127.0.0.1:PORT
	Client *http.Client // trusts the throw-away CA only
	// CAFile holds the throw-away CA's certificate (PEM), for clients in
	// other processes (NODE_EXTRA_CA_CERTS for Node.js).
	CAFile string
	addr   string
	dir    string
	stats  string // host:port of haproxy's stats page
	cmd    *exec.Cmd
	logs   *lockedBuffer
	// The two listening sockets, held from NewBalancer until haproxy
	// inherits them (fd@3, fd@4): a port only picked and freed could be
	// taken meanwhile by a replica or another test's server.
	front, statsLn *net.TCPListener
}

// PinHeader sends a request to the replica it names (r1, r2, …) instead
// of the next one in turn.
const PinHeader = "X-Osf-Replica"

// NewBalancer makes the CA and the certificate and picks the balancer's
// address, so replicas can be told their public URL before it starts.
func NewBalancer(t TB) *Balancer {
	t.Helper()
	if _, err := exec.LookPath("haproxy"); err != nil {
		t.Fatal("haproxy not found: install Debian's haproxy package (make deps-test does)")
	}
	b := &Balancer{dir: t.TempDir(), logs: &lockedBuffer{}}
	b.front, b.statsLn = listenLoopback(t), listenLoopback(t)
	b.addr, b.stats = b.front.Addr().String(), b.statsLn.Addr().String()
	t.Cleanup(func() { b.front.Close(); b.statsLn.Close() })
	b.URL = "https://" + b.addr
	pool, err := writeCerts(b.dir)
	if err != nil {
		t.Fatal(err)
	}
	b.CAFile = filepath.Join(b.dir, "ca.pem")
	b.Client = &http.Client{Timeout: time.Minute, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	return b
}

// Start runs haproxy in front of backends (host:port each) and waits until
// it reports every one of them up.
func (b *Balancer) Start(t TB, backends ...string) {
	t.Helper()
	var servers strings.Builder
	for i := range backends {
		// A test may pin a request to one replica (authorize on r1, redeem
		// the code on r2) with the header PinHeader: r1, r2, …
		fmt.Fprintf(&servers, "    use-server r%d if { req.hdr(%s) -m str r%d }\n", i+1, PinHeader, i+1)
	}
	for i, be := range backends {
		fmt.Fprintf(&servers, "    server r%d %s check inter 1s fall 3 rise 1\n", i+1, be)
	}
	cfg := fmt.Sprintf(`global
    maxconn 2000
defaults
    mode http
    timeout connect 5s
    timeout client 2m
    timeout server 2m
    # a loaded test machine may answer a check slowly: slow is not down
    timeout check 10s
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response response-timeout
frontend team
    bind fd@3 ssl crt %s
    http-response set-header X-Balancer-Server %%[srv_name]
    default_backend replicas
backend replicas
    balance roundrobin
    option httpchk
    http-check send meth GET uri /readyz
%sfrontend stats
    bind fd@4
    stats enable
    stats uri /stats
`, filepath.Join(b.dir, "site.pem"), servers.String())
	path := filepath.Join(b.dir, "haproxy.cfg")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	front, err := b.front.File()
	if err != nil {
		t.Fatal(err)
	}
	stats, err := b.statsLn.File()
	if err != nil {
		t.Fatal(err)
	}
	b.cmd = exec.Command("haproxy", "-db", "-f", path)
	b.cmd.Stdout, b.cmd.Stderr = b.logs, b.logs
	b.cmd.ExtraFiles = []*os.File{front, stats} // fd 3 and 4 in haproxy
	err = b.cmd.Start()
	front.Close()
	stats.Close()
	if err != nil {
		t.Fatal(err)
	}
	// haproxy holds the sockets now; this process must not accept on them.
	b.front.Close()
	b.statsLn.Close()
	exited := make(chan struct{})
	go func() { b.cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		b.cmd.Process.Kill()
		<-exited
	})
	deadline := time.Now().Add(time.Minute)
	for {
		up, err := b.Up()
		if err == nil && len(up) == len(backends) {
			return
		}
		select {
		case <-exited:
			t.Fatalf("haproxy exited:\n%s", b.logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("haproxy did not report %d replicas up within a minute (%v, %v):\n%s", len(backends), up, err, b.logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Up lists the replicas haproxy's health checks find up now (r1, r2, …).
func (b *Balancer) Up() ([]string, error) {
	resp, err := http.Get("http://" + b.stats + "/stats;csv")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(body, []byte("# "))))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil || len(rows) == 0 {
		return nil, fmt.Errorf("reading haproxy's stats: %v", err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	var up []string
	for _, row := range rows[1:] {
		if row[col["pxname"]] == "replicas" && strings.HasPrefix(row[col["svname"]], "r") && row[col["status"]] == "UP" {
			up = append(up, row[col["svname"]])
		}
	}
	return up, nil
}

// writeCerts writes site.pem (a certificate for 127.0.0.1 and localhost
// with its key, as haproxy reads it) signed by a fresh CA, and returns a
// pool that trusts that CA.
func writeCerts(dir string) (*x509.CertPool, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("making the CA key: %w", err)
	}
	now := time.Now()
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "osFoundry test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("signing the CA: %w", err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("making the site key: %w", err)
	}
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("signing the site certificate: %w", err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("encoding the site key: %w", err)
	}
	var site bytes.Buffer
	pem.Encode(&site, &pem.Block{Type: "CERTIFICATE", Bytes: der})
	pem.Encode(&site, &pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	pem.Encode(&site, &pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
	if err := os.WriteFile(filepath.Join(dir, "site.pem"), site.Bytes(), 0o600); err != nil {
		return nil, fmt.Errorf("writing the site certificate: %w", err)
	}
	var caPEM bytes.Buffer
	pem.Encode(&caPEM, &pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	if err := os.WriteFile(filepath.Join(dir, "ca.pem"), caPEM.Bytes(), 0o600); err != nil {
		return nil, fmt.Errorf("writing the CA certificate: %w", err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	return pool, nil
}

func listenLoopback(t TB) *net.TCPListener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l.(*net.TCPListener)
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
