package teamserver

import (
	"net/http"
	"sync/atomic"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are what /metrics shows: requests by route, the pool, this
// replica's state, and the Go process. They live in the server's own
// registry, never the global one, so two servers in one test process do
// not collide.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	inFlight atomic.Int64
	replicas prometheus.Gauge
}

func newMetrics(s *Server) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "osfoundry_http_requests_total",
			Help: "HTTP requests answered, by route pattern, method and status code.",
		}, []string{"route", "method", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "osfoundry_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern and method.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method"}),
		replicas: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "osfoundry_team_replicas",
			Help: "Replicas on this database that sent a heartbeat in the last 30 seconds.",
		}),
	}
	m.reg.MustRegister(m.requests, m.latency, m.replicas,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "osfoundry_http_requests_in_flight",
			Help: "HTTP requests being answered now.",
		}, func() float64 { return float64(m.inFlight.Load()) }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name:        "osfoundry_team_build_info",
			Help:        "Always 1; its labels name this replica's version.",
			ConstLabels: prometheus.Labels{"version": s.version},
		}, func() float64 { return 1 }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "osfoundry_database_up",
			Help: "1 when the last check found PostgreSQL answering, else 0.",
		}, func() float64 { return boolFloat(s.dbUp.Load()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "osfoundry_team_draining",
			Help: "1 once this replica is shutting down.",
		}, func() float64 {
			select {
			case <-s.draining:
				return 1
			default:
				return 0
			}
		}),
		poolCollector{s.pool},
	)
	return m
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// inFlightNow is how many requests are being answered, for the drain's log line.
func (m *metrics) inFlightNow() int64 { return m.inFlight.Load() }

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// poolCollector reads pgxpool's statistics at scrape time.
type poolCollector struct{ pool *pgxpool.Pool }

var poolDescs = struct {
	acquired, idle, total, max, constructing                *prometheus.Desc
	acquires, acquireSeconds, emptyAcquires, canceled, news *prometheus.Desc
}{
	acquired:       prometheus.NewDesc("osfoundry_db_pool_acquired_conns", "Connections in use by a request now.", nil, nil),
	idle:           prometheus.NewDesc("osfoundry_db_pool_idle_conns", "Open connections waiting for a request.", nil, nil),
	total:          prometheus.NewDesc("osfoundry_db_pool_conns", "Open connections, in use or idle.", nil, nil),
	max:            prometheus.NewDesc("osfoundry_db_pool_max_conns", "The most connections the pool opens (pool_max_conns in the database URL).", nil, nil),
	constructing:   prometheus.NewDesc("osfoundry_db_pool_constructing_conns", "Connections being opened now.", nil, nil),
	acquires:       prometheus.NewDesc("osfoundry_db_pool_acquires_total", "Connections handed to requests.", nil, nil),
	acquireSeconds: prometheus.NewDesc("osfoundry_db_pool_acquire_seconds_total", "Time requests waited for a connection.", nil, nil),
	emptyAcquires:  prometheus.NewDesc("osfoundry_db_pool_empty_acquires_total", "Requests that had to wait because no connection was idle.", nil, nil),
	canceled:       prometheus.NewDesc("osfoundry_db_pool_canceled_acquires_total", "Requests that gave up waiting for a connection.", nil, nil),
	news:           prometheus.NewDesc("osfoundry_db_pool_new_conns_total", "Connections opened.", nil, nil),
}

func (c poolCollector) Describe(ch chan<- *prometheus.Desc) {
	d := poolDescs
	for _, x := range []*prometheus.Desc{d.acquired, d.idle, d.total, d.max, d.constructing, d.acquires, d.acquireSeconds, d.emptyAcquires, d.canceled, d.news} {
		ch <- x
	}
}

func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.pool.Stat()
	d := poolDescs
	g, n := prometheus.GaugeValue, prometheus.CounterValue
	ch <- prometheus.MustNewConstMetric(d.acquired, g, float64(st.AcquiredConns()))
	ch <- prometheus.MustNewConstMetric(d.idle, g, float64(st.IdleConns()))
	ch <- prometheus.MustNewConstMetric(d.total, g, float64(st.TotalConns()))
	ch <- prometheus.MustNewConstMetric(d.max, g, float64(st.MaxConns()))
	ch <- prometheus.MustNewConstMetric(d.constructing, g, float64(st.ConstructingConns()))
	ch <- prometheus.MustNewConstMetric(d.acquires, n, float64(st.AcquireCount()))
	ch <- prometheus.MustNewConstMetric(d.acquireSeconds, n, st.AcquireDuration().Seconds())
	ch <- prometheus.MustNewConstMetric(d.emptyAcquires, n, float64(st.EmptyAcquireCount()))
	ch <- prometheus.MustNewConstMetric(d.canceled, n, float64(st.CanceledAcquireCount()))
	ch <- prometheus.MustNewConstMetric(d.news, n, float64(st.NewConnsCount()))
}
