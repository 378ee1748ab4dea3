package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/samekey/samekey/bindings/go"
)

// Codes the client itself reports; the registry's own come from its problem documents.
const (
	CodeConnectionFailed   = "connection_failed"
	CodeDeadlineExceeded   = "deadline_exceeded"
	CodeNotRewindable      = "not_rewindable"
	CodeKeyMismatch        = "key_mismatch"
	CodeUnexpectedResponse = "unexpected_response"
)

// Revision is a registered revision as the registry answered it. Created is true when
// this call created it (HTTP 201), false when the registry already had it.
type Revision struct {
	Key         string    `json:"key"`
	Parent      *string   `json:"parent"`
	Scheme      string    `json:"scheme"`
	ContentHash string    `json:"content_hash"`
	MediaType   string    `json:"media_type"`
	Size        int64     `json:"size"`
	CreatedAt   time.Time `json:"created_at"`
	Created     bool      `json:"-"`
}

// Error is a failed request. Code is the registry's problem code ("unknown_parent",
// "database_unavailable", ...) or the client's own (the Code constants); Status is the
// HTTP status when there was an answer. It matches samekey's *samekey.Error of the same
// code with errors.Is, and KeyMismatch holds both keys when Code is "key_mismatch".
type Error struct {
	Code    string
	Status  int
	Detail  string
	Problem map[string]any
	// Expected and Answered are the keys of a key_mismatch.
	Expected, Answered string
	cause              error
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("samekey registry: %d %s: %s", e.Status, e.Code, e.Detail)
	}
	return fmt.Sprintf("samekey registry: %s: %s", e.Code, e.Detail)
}

func (e *Error) Unwrap() error { return e.cause }

// Is matches a *samekey.Error or an *Error with the same code.
func (e *Error) Is(target error) bool {
	var s *samekey.Error
	if errors.As(target, &s) {
		return s.Code == e.Code
	}
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && (t.Status == 0 || t.Status == e.Status)
}

func problemError(status int, contentType string, body []byte) *Error {
	var problem map[string]any
	if json.Unmarshal(body, &problem) == nil {
		if code, ok := problem["code"].(string); ok {
			detail, _ := problem["detail"].(string)
			if detail == "" {
				detail, _ = problem["title"].(string)
			}
			return &Error{Code: code, Status: status, Detail: detail, Problem: problem}
		}
	}
	text := string(body)
	if len(text) > 200 {
		text = text[:200]
	}
	return &Error{Code: CodeUnexpectedResponse, Status: status, Detail: fmt.Sprintf("HTTP %d (%s) without a problem document: %q", status, contentType, text)}
}

// Retry says when a request is tried again: after a connection failure (before or after
// its body was sent: a registration is keyed by its content, so a retry creates nothing
// new), a timeout, and the Statuses; never after another 4xx. The wait before retry n
// (from 0) is a random fraction of min(MaxDelay, InitialDelay * 2^n) ("full jitter"),
// or exactly an answer's Retry-After. No wait ends past Deadline from the call's start
// (nor past the context's deadline); the last error is returned instead.
type Retry struct {
	MaxRetries   int
	InitialDelay time.Duration
	MaxDelay     time.Duration
	Deadline     time.Duration
	Statuses     []int
}

// DefaultRetry is 2 retries, 0.5 s doubling to at most 5 s, a 60 s deadline, on 429,
// 500, 502, 503 and 504.
func DefaultRetry() Retry {
	return Retry{MaxRetries: 2, InitialDelay: 500 * time.Millisecond, MaxDelay: 5 * time.Second, Deadline: 60 * time.Second,
		Statuses: []int{http.StatusTooManyRequests, 500, 502, 503, 504}}
}

func (r Retry) retries(status int) bool {
	for _, s := range r.Statuses {
		if s == status {
			return true
		}
	}
	return false
}
