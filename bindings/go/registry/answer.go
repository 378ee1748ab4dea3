package registry

import (
	"context"
	"net/http"
	"net/http/httptrace"
	"sync"
	"sync/atomic"
	"time"
)

// answerBound ends an attempt whose answer is still arriving at the call's deadline.
// net/http's timeouts bound the wait for a head, not an answer that trickles in a byte
// at a time (one took the transport's 30 s header timeout with a 6 s deadline). The bound
// starts once the request is written, so an upload is as long as its data; one that
// outlived the deadline still has the transport's header timeout (30 s by New) for its
// answer.
type answerBound struct {
	cancel  context.CancelFunc
	mu      sync.Mutex
	timer   *time.Timer
	expired atomic.Bool
}

// bound returns req with the bound armed when it is written, and the bound to stop.
func bound(req *http.Request, deadline time.Time, grace time.Duration) (*http.Request, *answerBound) {
	ctx, cancel := context.WithCancel(req.Context())
	b := &answerBound{cancel: cancel}
	trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) {
		wait := time.Until(deadline)
		if wait <= 0 {
			wait = grace
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		if b.timer == nil {
			b.timer = time.AfterFunc(wait, func() { b.expired.Store(true); cancel() })
		}
	}}
	return req.WithContext(httptrace.WithClientTrace(ctx, trace)), b
}

// stop disarms the bound once the answer is read whole; whether it had expired.
func (b *answerBound) stop() bool {
	b.mu.Lock()
	if b.timer != nil {
		b.timer.Stop()
	}
	b.mu.Unlock()
	b.cancel()
	return b.expired.Load()
}

// headerTimeout is the transport's wait for an answer's head, or 30 s when it has none.
func headerTimeout(c *http.Client) time.Duration {
	if t, ok := c.Transport.(*http.Transport); ok && t.ResponseHeaderTimeout > 0 {
		return t.ResponseHeaderTimeout
	}
	return 30 * time.Second
}
