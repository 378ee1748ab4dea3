// Package registry is a client of the samekey registry (samekey serve) on net/http.
//
// Retrying is safe by construction: a registration's key is derived from its content
// and parent, so the retry of a request whose answer was lost finds the revision the
// first attempt created, with no idempotency key to keep. The client derives that key
// itself, with the key ring it expects the registry to use, before anything is sent: a
// large payload the registry already has is not uploaded again, and an answer under any
// other key is an error (code "key_mismatch") instead of being accepted.
package registry

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/samekey/samekey/bindings/go"
)

// Client talks to one registry. Its fields may be set before first use and not after.
type Client struct {
	// HTTP is the client requests go through. New's waits at most 30 s for a
	// connection and 30 s for an answer's head, with no limit on reading a body (a
	// large Data stream); set your own for proxies, TLS settings or other timeouts.
	HTTP *http.Client
	// Ring is the key ring this client expects the registry to use (v1 when nil): every
	// registration's key is derived with it and every answer checked against it.
	Ring *samekey.KeyRing
	// Retry says when a request is tried again (DefaultRetry when zero).
	Retry Retry
	// SkipUploadAbove is the size above which a payload is looked up first and not
	// sent when the registry has it (1 MiB by New; negative never asks).
	SkipUploadAbove int64

	base  string
	token string
}

// New is a client of the registry at baseURL ("http://127.0.0.1:8080"), sending token
// as a bearer token unless it is empty.
func New(baseURL, token string) (*Client, error) {
	if !strings.HasPrefix(baseURL, "http://") && !strings.HasPrefix(baseURL, "https://") {
		return nil, fmt.Errorf("samekey registry: the base URL must start with http:// or https://, not %q", baseURL)
	}
	if strings.ContainsAny(token, "\r\n") {
		return nil, errors.New("samekey registry: a token must be on one line")
	}
	return &Client{HTTP: defaultHTTP, base: strings.TrimRight(baseURL, "/"), token: token, Retry: DefaultRetry(), SkipUploadAbove: 1 << 20}, nil
}

var defaultHTTP = func() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	t.ResponseHeaderTimeout = 30 * time.Second
	t.MaxIdleConnsPerHost = 16
	return &http.Client{Transport: t}
}()

func (c *Client) ring() (*samekey.KeyRing, error) {
	if c.Ring != nil {
		return c.Ring, nil
	}
	return samekey.NewKeyRing(samekey.V1)
}

// Register registers a JSON value (as encoding/json writes it; its key is its canonical
// form's) on parent ("" for a root). encoding/json writes a float64 from 2^53 to 1e21 as
// integer digits, which the registry refuses (number_out_of_range); register such data
// with RegisterJSON and the number written with an exponent.
func (c *Client) Register(ctx context.Context, value any, parent string) (Revision, error) {
	text, err := samekey.CanonicalJSON(value)
	if err != nil {
		return Revision{}, err
	}
	body, err := json.Marshal(value)
	if err != nil {
		return Revision{}, err
	}
	return c.registerMemory(ctx, mediaJSON, []byte(text), body, parent)
}

// RegisterJSON registers JSON text: the same data as any other spelling of the same JSON.
func (c *Client) RegisterJSON(ctx context.Context, text []byte, parent string) (Revision, error) {
	canonical, err := samekey.CanonicalJSONText(text)
	if err != nil {
		return Revision{}, err
	}
	// Sent as written: a double from 2^53 to 1e21 is canonically an integer literal, which
	// the registry's JSON reader refuses as text (number_out_of_range, spec §6).
	return c.registerMemory(ctx, mediaJSON, []byte(canonical), text, parent)
}

// RegisterBytes registers bytes (application/octet-stream).
func (c *Client) RegisterBytes(ctx context.Context, data []byte, parent string) (Revision, error) {
	return c.registerMemory(ctx, mediaBytes, data, data, parent)
}

// RegisterFile registers a file's bytes, streamed (again on a retry) in bounded memory:
// above SkipUploadAbove bytes hashed first and looked up, otherwise hashed while sent.
func (c *Client) RegisterFile(ctx context.Context, path string, parent string) (Revision, error) {
	ring, err := c.ring()
	if err != nil {
		return Revision{}, err
	}
	p, err := file(ring, path, c.SkipUploadAbove)
	if err != nil {
		return Revision{}, err
	}
	return c.register(ctx, ring, p, parent)
}

// RegisterReader registers what r yields. An io.ReadSeeker is sent from its position
// (again on a retry), hashed as RegisterFile hashes a file; any other reader is hashed
// while it is sent, so it is always uploaded, and a failure after its first byte is an
// error with code "not_rewindable" instead of a retry.
func (c *Client) RegisterReader(ctx context.Context, r io.Reader, parent string) (Revision, error) {
	ring, err := c.ring()
	if err != nil {
		return Revision{}, err
	}
	p, err := reader(ring, r, c.SkipUploadAbove)
	if err != nil {
		return Revision{}, err
	}
	return c.register(ctx, ring, p, parent)
}

// Revision is the revision key names (any of its keys).
func (c *Client) Revision(ctx context.Context, key string) (Revision, error) {
	resp, err := c.do(ctx, http.MethodGet, revisionPath(key), nil, nil, true)
	if err != nil {
		return Revision{}, err
	}
	return revisionOf(resp)
}

// History is the revision and its ancestors, nearest first (at most limit, 1 to 1000;
// 0 for the registry's default).
func (c *Client) History(ctx context.Context, key string, limit int) ([]Revision, error) {
	q := url.Values{}
	if limit != 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	resp, err := c.do(ctx, http.MethodGet, revisionPath(key)+"/history", q, nil, true)
	if err != nil {
		return nil, err
	}
	body, err := answer(resp)
	if err != nil {
		return nil, err
	}
	var h struct {
		Revisions []Revision `json:"revisions"`
	}
	if err := json.Unmarshal(body, &h); err != nil || h.Revisions == nil {
		return nil, &Error{Code: CodeUnexpectedResponse, Status: resp.StatusCode, Detail: "a history answer without its revisions"}
	}
	return h.Revisions, nil
}

// Data is the stored bytes of key (canonical JSON for JSON), streamed: read it, then
// close it. Retried until the answer starts.
func (c *Client) Data(ctx context.Context, key string) (io.ReadCloser, error) {
	resp, err := c.do(ctx, http.MethodGet, revisionPath(key)+"/data", nil, nil, false)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		_, err := answer(resp)
		return nil, err
	}
	return resp.Body, nil
}

func (c *Client) registerMemory(ctx context.Context, mediaType string, data, body []byte, parent string) (Revision, error) {
	ring, err := c.ring()
	if err != nil {
		return Revision{}, err
	}
	p, err := memory(ring, mediaType, data, body)
	if err != nil {
		return Revision{}, err
	}
	return c.register(ctx, ring, p, parent)
}

func (c *Client) register(ctx context.Context, ring *samekey.KeyRing, p *payload, parent string) (Revision, error) {
	var par *string
	if parent != "" {
		par = &parent
	}
	if p.hashes != nil && p.size >= 0 && c.SkipUploadAbove >= 0 && p.size > c.SkipUploadAbove {
		key, err := expectedKey(ring, p.hashes, par)
		if err != nil {
			return Revision{}, err
		}
		resp, err := c.do(ctx, http.MethodGet, revisionPath(key), nil, nil, true)
		if err != nil {
			return Revision{}, err
		}
		if resp.StatusCode == http.StatusOK {
			rev, err := revisionOf(resp)
			if err != nil {
				return rev, err
			}
			return check(ring, p, par, rev)
		}
		if resp.StatusCode != http.StatusNotFound {
			_, err := answer(resp)
			return Revision{}, err
		}
		resp.Body.Close()
	}
	q := url.Values{}
	if par != nil {
		q.Set("parent", parent)
	}
	resp, err := c.do(ctx, http.MethodPost, "/v1/revisions", q, p, true)
	if err != nil {
		p.done()
		return Revision{}, err
	}
	rev, err := revisionOf(resp)
	if derr := p.done(); err == nil && derr != nil {
		return rev, derr
	}
	if err != nil {
		return rev, err
	}
	return check(ring, p, par, rev)
}

func revisionPath(key string) string {
	return "/v1/revisions/" + strings.ReplaceAll(url.PathEscape(key), "%3A", ":")
}

// answer reads a response: its body when 200 or 201, else the problem as an *Error.
func answer(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, &Error{Code: CodeConnectionFailed, Status: resp.StatusCode, Detail: "the answer was cut off: " + err.Error(), cause: err}
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		return nil, problemError(resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	return body, nil
}

func revisionOf(resp *http.Response) (Revision, error) {
	body, err := answer(resp)
	if err != nil {
		return Revision{}, err
	}
	var rev Revision
	if err := json.Unmarshal(body, &rev); err != nil || rev.Key == "" {
		return Revision{}, &Error{Code: CodeUnexpectedResponse, Status: resp.StatusCode, Detail: fmt.Sprintf("not a revision: %.200s", body)}
	}
	rev.Created = resp.StatusCode == http.StatusCreated
	return rev, nil
}

// maxAnswer bounds an answer read whole: a revision, a history of 1000, a problem.
const maxAnswer = 16 << 20

// do sends a request, retried as c.Retry says; the response is the caller's to close.
// With whole, the answer's body is read within the attempt, so that an answer cut off
// mid-way is retried like a lost one (the registration it answers may have committed:
// its retry finds it); a streamed answer (revision data) is read by the caller.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, p *payload, whole bool) (*http.Response, error) {
	policy := c.Retry
	if policy.MaxRetries == 0 && policy.Deadline == 0 && policy.Statuses == nil {
		policy = DefaultRetry()
	}
	httpClient := c.HTTP
	if httpClient == nil {
		httpClient = defaultHTTP
	}
	start := time.Now()
	target := c.base + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	for retries := 0; ; retries++ {
		var body io.Reader
		if p != nil {
			r, err := p.open()
			if err != nil {
				return nil, err
			}
			body = r
		}
		req, err := http.NewRequestWithContext(ctx, method, target, body)
		if err != nil {
			return nil, err
		}
		if p != nil {
			req.Header.Set("Content-Type", p.mediaType)
			if p.bodySize >= 0 {
				req.ContentLength = p.bodySize
			}
			// The transport must not retry on its own with a body it cannot re-read.
			req.GetBody = nil
		}
		req.Header.Set("Accept", "application/json")
		req.Header.Set("User-Agent", "samekey-go/"+samekey.Version())
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		var answer *answerBound
		if whole {
			req, answer = bound(req, start.Add(policy.Deadline), headerTimeout(httpClient))
		}
		resp, err := httpClient.Do(req)
		if err == nil && whole {
			var read []byte
			read, err = io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
			resp.Body.Close()
			if err == nil {
				resp.Body = io.NopCloser(bytes.NewReader(read))
			} else {
				err = fmt.Errorf("the answer (%d) was cut off: %w", resp.StatusCode, err)
				resp = nil
			}
		}
		if answer != nil && answer.stop() && err != nil {
			err = fmt.Errorf("the answer was still arriving at the deadline: %w", err)
		}
		if err != nil && certificateRejected(err) {
			return nil, &Error{Code: CodeConnectionFailed, Detail: fmt.Sprintf("%s %s: the server's certificate did not verify (%v); not retried, since it will not verify on a retry either: trust its CA in the Client's HTTP (tls.Config RootCAs)", method, path, err), cause: err}
		}
		var asked time.Duration = -1
		if err == nil {
			if !policy.retries(resp.StatusCode) {
				return resp, nil
			}
			asked = retryAfter(resp.Header.Get("Retry-After"))
		} else if ctx.Err() != nil {
			return nil, &Error{Code: CodeDeadlineExceeded, Detail: fmt.Sprintf("%s %s: %v", method, path, ctx.Err()), cause: err}
		}
		wait, ok := nextDelay(policy, retries, asked, time.Since(start), ctx)
		if !ok {
			if err == nil {
				return resp, nil // the caller reads the retryable status's problem
			}
			code := CodeConnectionFailed
			if time.Since(start) >= policy.Deadline {
				code = CodeDeadlineExceeded
			}
			return nil, &Error{Code: code, Detail: fmt.Sprintf("%s %s: %v (after %d retries)", method, path, err, retries), cause: err}
		}
		if err == nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
		}
		select {
		case <-ctx.Done():
			return nil, &Error{Code: CodeDeadlineExceeded, Detail: fmt.Sprintf("%s %s: %v", method, path, ctx.Err()), cause: ctx.Err()}
		case <-time.After(wait):
		}
	}
}

// certificateRejected is whether err is the server's certificate failing verification
// (an unknown CA, another host's name, expired): a retry would fail the same way.
func certificateRejected(err error) bool {
	var verification *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	return errors.As(err, &verification) || errors.As(err, &unknown) || errors.As(err, &hostname) || errors.As(err, &invalid)
}

// nextDelay is the wait before retry n, or false when none is left or the wait would end
// past the deadline (the policy's or the context's).
func nextDelay(p Retry, n int, asked time.Duration, elapsed time.Duration, ctx context.Context) (time.Duration, bool) {
	if n >= p.MaxRetries {
		return 0, false
	}
	wait := asked
	if wait < 0 {
		ceiling := p.InitialDelay << n
		if ceiling > p.MaxDelay || ceiling <= 0 {
			ceiling = p.MaxDelay
		}
		wait = time.Duration(rand.Int64N(int64(ceiling) + 1))
	}
	if elapsed+wait >= p.Deadline {
		return 0, false
	}
	if d, ok := ctx.Deadline(); ok && time.Now().Add(wait).After(d) {
		return 0, false
	}
	return wait, true
}

// retryAfter is a Retry-After field's wait (RFC 9110 §10.2.3: seconds or an HTTP
// date), or -1.
func retryAfter(v string) time.Duration {
	if v == "" {
		return -1
	}
	if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
		return 0
	}
	return -1
}
