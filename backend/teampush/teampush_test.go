package teampush

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

var bg = context.Background()

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// clock is a settable time for the cooldown.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// twoReplicas are two services over one database, as two replicas are.
func twoReplicas(t *testing.T) (*Service, *Service, *clock) {
	t.Helper()
	pool, err := pgdb.Open(bg, pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if err := pgdb.Migrate(bg, pool, Component, Migrations()); err != nil {
		t.Fatal(err)
	}
	c := &clock{now: time.Now()}
	mk := func() *Service {
		s, err := New(Config{Pool: pool, PublicURL: "https://team.example.com", Now: c.Now})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return mk(), mk(), c
}

// received is one request a fake ntfy server or push service took.
type received struct {
	path   string
	header http.Header
	body   []byte
}

func listener(t *testing.T, status int) (*httptest.Server, func() []received) {
	t.Helper()
	var mu sync.Mutex
	var got []received
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, received{r.URL.Path, r.Header.Clone(), b})
		mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []received { mu.Lock(); defer mu.Unlock(); return append([]received(nil), got...) }
}

// ntfy's publish contract: POST to the topic, the message as the body,
// Title / Priority / Click / Tags headers, the access token as a bearer;
// one push per session per cooldown, across replicas.
func TestNtfyPublishAndTheCooldown(t *testing.T) {
	r1, r2, c := twoReplicas(t)
	ntfy, got := listener(t, http.StatusOK)
	topic, err := r1.SetTopic(bg, "p-alice", ntfy.URL, "tk_secret")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(topic.Topic, "osf-") || len(topic.Topic) < 20 || topic.Subscribe != ntfy.URL+"/"+topic.Topic {
		t.Fatalf("topic: %+v", topic)
	}
	m := Message{Title: "Claude Code needs you\r\nX-Injected: 1", Body: "Allow Bash: rm -rf build?", URL: "/needs-you?session=s1"}
	d, err := r1.Notify(bg, "p-alice", "desk-1/pane-7", m)
	if err != nil || !d.Ntfy || d.Skipped {
		t.Fatalf("first push: %+v %v", d, err)
	}
	req := got()[0]
	if req.path != "/"+topic.Topic || string(req.body) != m.Body || req.header.Get("Priority") != "high" ||
		req.header.Get("Click") != "https://team.example.com/needs-you?session=s1" || req.header.Get("Authorization") != "Bearer tk_secret" ||
		req.header.Get("Title") != "Claude Code needs you  X-Injected: 1" || req.header.Get("X-Injected") != "" {
		t.Fatalf("the ntfy request: %s %q %v", req.path, req.body, req.header)
	}
	// Within the cooldown, on the other replica too: nothing.
	c.add(10 * time.Second)
	if d, err := r2.Notify(bg, "p-alice", "desk-1/pane-7", m); err != nil || !d.Skipped || len(got()) != 1 {
		t.Fatalf("within the cooldown: %+v %v (%d sent)", d, err, len(got()))
	}
	// Another session pushes at once; the first again after the cooldown.
	if d, _ := r2.Notify(bg, "p-alice", "desk-1/pane-8", m); !d.Ntfy {
		t.Fatalf("another session: %+v", d)
	}
	c.add(Cooldown)
	if d, _ := r1.Notify(bg, "p-alice", "desk-1/pane-7", m); !d.Ntfy || len(got()) != 3 {
		t.Fatalf("after the cooldown: %+v (%d sent)", d, len(got()))
	}
	// Someone without a topic: nothing sent, nothing failed.
	if d, err := r1.Notify(bg, "p-bob", "desk-2/pane-1", m); err != nil || d.Ntfy || len(d.Failed) != 0 {
		t.Fatalf("no topic: %+v %v", d, err)
	}
	for _, bad := range []string{"ftp://ntfy.sh", "http://ntfy.sh", "https://user:pw@ntfy.sh", "ntfy.sh", ""} {
		if _, err := r1.SetTopic(bg, "p-alice", bad, ""); err == nil {
			t.Fatalf("server %q was taken", bad)
		}
	}
}

// Web Push as a push service sees it (RFC 8030/8291/8292): the body
// decrypts with the subscription's keys to the message, and the VAPID
// token is signed by the server's key for the push service's origin.
func TestWebPushIsEncryptedAndSigned(t *testing.T) {
	r1, _, _ := twoReplicas(t)
	service, got := listener(t, http.StatusCreated)
	ua, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	b64 := base64.RawURLEncoding.EncodeToString
	sub := webpush.Subscription{Endpoint: service.URL + "/push/abc", Keys: webpush.Keys{P256dh: b64(ua.PublicKey().Bytes()), Auth: b64(auth)}}
	if err := r1.Subscribe(bg, "p-alice", sub); err != nil {
		t.Fatal(err)
	}
	m := Message{Title: "Codex needs you", Body: "Run `make test`? (y/n)", URL: "/needs-you"}
	d, err := r1.Notify(bg, "p-alice", "desk-1/pane-1", m)
	if err != nil || d.WebPush != 1 {
		t.Fatalf("push: %+v %v", d, err)
	}
	req := got()[0]
	if req.path != "/push/abc" || req.header.Get("Content-Encoding") != "aes128gcm" || req.header.Get("Urgency") != "high" || req.header.Get("TTL") == "" {
		t.Fatalf("the push request: %s %v", req.path, req.header)
	}
	plain, err := decrypt(req.body, ua, auth)
	if err != nil {
		t.Fatal(err)
	}
	var back Message
	if err := json.Unmarshal(plain, &back); err != nil || back.Title != m.Title || back.Body != m.Body || back.URL != "https://team.example.com/needs-you" {
		t.Fatalf("decrypted %q: %v", plain, err)
	}
	pub, _ := r1.PublicKey(bg)
	if err := verifyVAPID(req.header.Get("Authorization"), pub, service.URL, "https://team.example.com"); err != nil {
		t.Fatal(err)
	}

	// A browser that unsubscribed (410 Gone) is dropped.
	gone, _ := listener(t, http.StatusGone)
	sub.Endpoint = gone.URL + "/push/old"
	if err := r1.Subscribe(bg, "p-alice", sub); err != nil {
		t.Fatal(err)
	}
	if d, _ := r1.Notify(bg, "p-alice", "desk-1/pane-2", m); d.WebPush != 1 {
		t.Fatalf("with a gone browser: %+v", d)
	}
	var n int
	if err := r1.cfg.Pool.QueryRow(bg, `SELECT count(*) FROM teampush_webpush WHERE person_id = 'p-alice'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("subscriptions left: %d %v", n, err)
	}
	// Bad subscriptions are refused.
	for _, bad := range []webpush.Subscription{
		{Endpoint: "http://push.example.com/x", Keys: sub.Keys},
		{Endpoint: service.URL + "/x", Keys: webpush.Keys{P256dh: "short", Auth: sub.Keys.Auth}},
		{Endpoint: service.URL + "/x", Keys: webpush.Keys{P256dh: sub.Keys.P256dh, Auth: b64([]byte("x"))}},
	} {
		if err := r1.Subscribe(bg, "p-alice", bad); err == nil {
			t.Fatalf("subscription %+v was taken", bad)
		}
	}
}

// decrypt opens an aes128gcm Web Push body (RFC 8291 §3.4, RFC 8188).
func decrypt(body []byte, ua *ecdh.PrivateKey, auth []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("body too short")
	}
	salt, idlen := body[:16], int(body[20])
	_ = binary.BigEndian.Uint32(body[16:20]) // record size
	asPub, err := ecdh.P256().NewPublicKey(body[21 : 21+idlen])
	if err != nil {
		return nil, err
	}
	shared, err := ua.ECDH(asPub)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), ua.PublicKey().Bytes()...), asPub.Bytes()...)
	ikm, err := hkdf.Key(sha256.New, shared, auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	cek, _ := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16)
	nonce, _ := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	block, _ := aes.NewCipher(cek)
	gcm, _ := cipher.NewGCM(block)
	plain, err := gcm.Open(nil, nonce, body[21+idlen:], nil)
	if err != nil {
		return nil, err
	}
	plain = []byte(strings.TrimRight(string(plain), "\x00"))
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:len(plain)-1], nil
}

// verifyVAPID checks "vapid t=<JWT>, k=<key>" (RFC 8292): the key is the
// server's, the ES256 signature holds, aud is the push service's origin.
func verifyVAPID(h, serverKey, origin, subscriber string) error {
	t, k, ok := strings.Cut(strings.TrimPrefix(h, "vapid t="), ", k=")
	if !ok || k != strings.TrimRight(serverKey, "=") {
		return errors.New("not a vapid header with the server's key: " + h)
	}
	raw, err := base64.RawURLEncoding.DecodeString(k)
	if err != nil {
		return err
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		return err
	}
	parts := strings.Split(t, ".")
	if len(parts) != 3 {
		return errors.New("not a JWT")
	}
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if len(sig) != 64 || !ecdsa.Verify(pub, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return errors.New("the VAPID signature does not verify")
	}
	claims, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var c struct {
		Aud string `json:"aud"`
		Sub string `json:"sub"`
		Exp int64  `json:"exp"`
	}
	if err := json.Unmarshal(claims, &c); err != nil || c.Aud != origin || c.Sub != subscriber || c.Exp < time.Now().Unix() {
		return errors.New("VAPID claims: " + string(claims))
	}
	return nil
}
