package teampush

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"

	webpush "github.com/SherClockHolmes/webpush-go"

	"github.com/osfoundry/desktop/backend/teamauth"
)

var errNoTopic = errors.New("no ntfy topic")

// Topic is a person's ntfy subscription as the page shows it.
type Topic struct {
	Server string `json:"server"`
	Topic  string `json:"topic"`
	// Subscribe is what the phone's ntfy app subscribes to (the QR code).
	Subscribe string `json:"subscribe"`
	HasToken  bool   `json:"has_token"`
}

func topicOf(server, topic, token string) Topic {
	return Topic{Server: server, Topic: topic, Subscribe: strings.TrimSuffix(server, "/") + "/" + topic, HasToken: token != ""}
}

// SetTopic gives person a new random topic on the ntfy server at server
// (an https URL, or http on loopback), with token for a server that wants
// one; a new topic replaces the old, whose subscribers hear nothing more.
func (s *Service) SetTopic(ctx context.Context, personID, server, token string) (Topic, error) {
	u, err := url.Parse(strings.TrimSpace(server))
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" ||
		!(u.Scheme == "https" || u.Scheme == "http" && loopback(u.Hostname())) {
		return Topic{}, badInput("the ntfy server is an https address such as https://ntfy.sh")
	}
	if len(token) > 500 || strings.ContainsAny(token, "\r\n") {
		return Topic{}, badInput("the ntfy access token is one line of at most 500 characters")
	}
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		return Topic{}, err
	}
	topic := "osf-" + base64.RawURLEncoding.EncodeToString(b)
	base := strings.TrimSuffix(u.String(), "/")
	if _, err := s.cfg.Pool.Exec(ctx, `INSERT INTO teampush_ntfy (person_id, server_url, topic, token) VALUES ($1, $2, $3, $4)
		ON CONFLICT (person_id) DO UPDATE SET server_url = excluded.server_url, topic = excluded.topic, token = excluded.token, created_at = now()`,
		personID, base, topic, token); err != nil {
		return Topic{}, fmt.Errorf("saving the ntfy topic: %w", err)
	}
	return topicOf(base, topic, token), nil
}

// TopicOf is person's ntfy topic; ok is false when they have none.
func (s *Service) TopicOf(ctx context.Context, personID string) (Topic, bool, error) {
	var server, topic, token string
	err := s.cfg.Pool.QueryRow(ctx, `SELECT server_url, topic, token FROM teampush_ntfy WHERE person_id = $1`, personID).Scan(&server, &topic, &token)
	if errors.Is(err, pgx.ErrNoRows) {
		return Topic{}, false, nil
	}
	if err != nil {
		return Topic{}, false, fmt.Errorf("reading the ntfy topic: %w", err)
	}
	return topicOf(server, topic, token), true, nil
}

// RemoveTopic stops pushes to ntfy for person.
func (s *Service) RemoveTopic(ctx context.Context, personID string) error {
	_, err := s.cfg.Pool.Exec(ctx, `DELETE FROM teampush_ntfy WHERE person_id = $1`, personID)
	return err
}

// ntfy publishes m to person's topic, as ntfy documents it: POST to the
// topic's URL, the message as the body, Title, Priority, Click and Tags as
// headers, the token as a bearer.
func (s *Service) ntfy(ctx context.Context, personID string, m Message) error {
	var server, topic, token string
	err := s.cfg.Pool.QueryRow(ctx, `SELECT server_url, topic, token FROM teampush_ntfy WHERE person_id = $1`, personID).Scan(&server, &topic, &token)
	if errors.Is(err, pgx.ErrNoRows) {
		return errNoTopic
	}
	if err != nil {
		return fmt.Errorf("reading the ntfy topic: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, server+"/"+topic, strings.NewReader(m.Body))
	if err != nil {
		return err
	}
	req.Header.Set("Title", headerText(m.Title))
	req.Header.Set("Priority", "high")
	req.Header.Set("Tags", "bell")
	if m.URL != "" {
		req.Header.Set("Click", m.URL)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := s.cfg.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("ntfy at %s: %w", server, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("ntfy at %s answered %s: check the server and its access token in the page's settings", server, resp.Status)
	}
	return nil
}

// headerText keeps a header value to one line of printable text.
func headerText(v string) string {
	v = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, v)
	if len(v) > 200 {
		v = v[:200]
	}
	return v
}

// webPush sends m to each browser person subscribed, dropping the ones
// their push service says are gone (404, 410).
func (s *Service) webPush(ctx context.Context, personID string, m Message) (int, []string, error) {
	pub, priv, err := s.vapid(ctx)
	if err != nil {
		return 0, nil, err
	}
	rows, err := s.cfg.Pool.Query(ctx, `SELECT endpoint, p256dh, auth FROM teampush_webpush WHERE person_id = $1`, personID)
	if err != nil {
		return 0, nil, fmt.Errorf("reading the browsers to push to: %w", err)
	}
	subs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (webpush.Subscription, error) {
		var sub webpush.Subscription
		return sub, r.Scan(&sub.Endpoint, &sub.Keys.P256dh, &sub.Keys.Auth)
	})
	if err != nil {
		return 0, nil, fmt.Errorf("reading the browsers to push to: %w", err)
	}
	payload, _ := json.Marshal(m)
	var n int
	var failed []string
	for _, sub := range subs {
		resp, err := webpush.SendNotificationWithContext(ctx, payload, &sub, &webpush.Options{HTTPClient: s.cfg.HTTP,
			Subscriber: s.cfg.PublicURL, VAPIDPublicKey: pub, VAPIDPrivateKey: priv, TTL: 300, Urgency: webpush.UrgencyHigh})
		if err != nil {
			failed = append(failed, fmt.Sprintf("web push to %s: %v", hostOf(sub.Endpoint), err))
			continue
		}
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
			if _, err := s.cfg.Pool.Exec(ctx, `DELETE FROM teampush_webpush WHERE endpoint = $1`, sub.Endpoint); err != nil {
				return n, failed, fmt.Errorf("dropping a browser that unsubscribed: %w", err)
			}
		case resp.StatusCode/100 != 2:
			failed = append(failed, fmt.Sprintf("web push to %s answered %s", hostOf(sub.Endpoint), resp.Status))
		default:
			n++
		}
	}
	return n, failed, nil
}

func hostOf(endpoint string) string {
	if u, err := url.Parse(endpoint); err == nil {
		return u.Host
	}
	return "a push service"
}

// vapid is the server's key pair, made once for every replica.
func (s *Service) vapid(ctx context.Context) (pub, priv string, err error) {
	err = s.cfg.Pool.QueryRow(ctx, `SELECT public_key, private_key FROM teampush_vapid WHERE id = 1`).Scan(&pub, &priv)
	if err == nil {
		return pub, priv, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", "", fmt.Errorf("reading the VAPID keys: %w", err)
	}
	newPriv, newPub, err := webpush.GenerateVAPIDKeys()
	if err != nil {
		return "", "", fmt.Errorf("making the VAPID keys: %w", err)
	}
	// Two replicas may race: the first row stays, both use it.
	if _, err := s.cfg.Pool.Exec(ctx, `INSERT INTO teampush_vapid (id, public_key, private_key) VALUES (1, $1, $2) ON CONFLICT DO NOTHING`, newPub, newPriv); err != nil {
		return "", "", fmt.Errorf("saving the VAPID keys: %w", err)
	}
	err = s.cfg.Pool.QueryRow(ctx, `SELECT public_key, private_key FROM teampush_vapid WHERE id = 1`).Scan(&pub, &priv)
	return pub, priv, err
}

// PublicKey is the VAPID key a page subscribes with (applicationServerKey).
func (s *Service) PublicKey(ctx context.Context) (string, error) {
	pub, _, err := s.vapid(ctx)
	return pub, err
}

// Subscribe keeps a browser's push subscription for person.
func (s *Service) Subscribe(ctx context.Context, personID string, sub webpush.Subscription) error {
	return s.SubscribeBrowser(ctx, personID, Browser{}, sub)
}

// Browser is the signed-in browser a subscription was made in.
type Browser struct {
	Key       string // its session's hash (teamauth.Service.SessionKey)
	UserAgent string
}

// SubscribeBrowser keeps sub for person, made in browser b: signing b out
// (DropBrowser) stops its pushes.
func (s *Service) SubscribeBrowser(ctx context.Context, personID string, b Browser, sub webpush.Subscription) error {
	u, err := url.Parse(sub.Endpoint)
	if err != nil || u.Scheme != "https" && !(u.Scheme == "http" && loopback(u.Hostname())) || len(sub.Endpoint) > 2000 {
		return badInput("the subscription's endpoint is the push service's https address")
	}
	p, err1 := base64.RawURLEncoding.DecodeString(strings.TrimRight(sub.Keys.P256dh, "="))
	a, err2 := base64.RawURLEncoding.DecodeString(strings.TrimRight(sub.Keys.Auth, "="))
	if err1 != nil || err2 != nil || len(p) != 65 || len(a) != 16 {
		return badInput("the subscription's keys are the browser's p256dh (65 bytes) and auth (16 bytes), base64url")
	}
	_, err = s.cfg.Pool.Exec(ctx, `INSERT INTO teampush_webpush (endpoint, person_id, p256dh, auth, session_key, user_agent) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (endpoint) DO UPDATE SET person_id = excluded.person_id, p256dh = excluded.p256dh, auth = excluded.auth,
			session_key = excluded.session_key, user_agent = excluded.user_agent`,
		sub.Endpoint, personID, sub.Keys.P256dh, sub.Keys.Auth, b.Key, b.UserAgent)
	if err != nil {
		return fmt.Errorf("keeping the subscription: %w", err)
	}
	return nil
}

// Unsubscribe drops one of person's browsers.
func (s *Service) Unsubscribe(ctx context.Context, personID, endpoint string) error {
	_, err := s.cfg.Pool.Exec(ctx, `DELETE FROM teampush_webpush WHERE endpoint = $1 AND person_id = $2`, endpoint, personID)
	return err
}

// Subscribed is how many Web Push subscriptions each browser of person
// holds, by its session key, with the User-Agent it subscribed with.
func (s *Service) Subscribed(ctx context.Context, personID string) (map[string]Subscribed, error) {
	rows, err := s.cfg.Pool.Query(ctx, `SELECT session_key, count(*), max(user_agent) FROM teampush_webpush WHERE person_id = $1 GROUP BY session_key`, personID)
	if err != nil {
		return nil, fmt.Errorf("reading the browsers that get pushes: %w", err)
	}
	defer rows.Close()
	out := map[string]Subscribed{}
	for rows.Next() {
		var key string
		var v Subscribed
		if err := rows.Scan(&key, &v.Count, &v.UserAgent); err != nil {
			return nil, fmt.Errorf("reading the browsers that get pushes: %w", err)
		}
		out[key] = v
	}
	return out, rows.Err()
}

// Subscribed is one browser's subscriptions.
type Subscribed struct {
	Count     int
	UserAgent string
}

// DropBrowser stops every push to the browser whose session key is key.
func (s *Service) DropBrowser(ctx context.Context, personID, key string) error {
	if _, err := s.cfg.Pool.Exec(ctx, `DELETE FROM teampush_webpush WHERE person_id = $1 AND session_key = $2`, personID, key); err != nil {
		return fmt.Errorf("stopping the browser's pushes: %w", err)
	}
	return nil
}

func loopback(host string) bool { return host == "127.0.0.1" || host == "::1" || host == "localhost" }

func badInput(msg string) error { return teamauth.Refuse(http.StatusBadRequest, "%s", msg) }
