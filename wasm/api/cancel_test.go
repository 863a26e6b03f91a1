package api

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aoekit/aoekit/core/engine"
)

// TestClientGoneStopsTheWork: the handler hands the engine the request's context, so an
// evaluation or a move whose client has gone away stops (engine.EvaluateContext), while the
// same request from a client still there is answered.
func TestClientGoneStopsTheWork(t *testing.T) {
	h := New()
	for _, c := range []struct{ path, body string }{
		// A large area with a barrier ring: seconds of work were it not stopped.
		{"/v1/evaluate", `{"template": "300 burst", "rules": "drawsteel", "caster": {"id": "c", "x": 0, "y": 0}}`},
		{"/v1/move", `{"kind": "push", "distance": 5, "source": {"x": 0, "y": 0}, "target": "g", "tokens": [{"id": "g", "x": 1, "y": 0}]}`},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		req := httptest.NewRequest("POST", c.path, strings.NewReader(c.body)).WithContext(ctx)
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(w, req)
		if e := errorOf(t, w); w.Code != 400 || e.Code != engine.CodeTooLarge || e.Message != "cancelled: context canceled" {
			t.Errorf("%s, client gone: %d %+v, want 400 too_large \"cancelled: context canceled\"", c.path, w.Code, e)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s, client gone: answered after %v", c.path, d)
		}
	}
	w := call{"POST", "/v1/move", "application/json",
		`{"kind": "push", "distance": 5, "source": {"x": 0, "y": 0}, "target": "g", "tokens": [{"id": "g", "x": 1, "y": 0}]}`}.do(t, h)
	if w.Code != 200 {
		t.Errorf("move, client there: %d %s", w.Code, w.Body)
	}
}

// TestCoverStatuses: POST /v1/cover answers as evaluate does, a rule violation with 422.
func TestCoverStatuses(t *testing.T) {
	h := New()
	for _, c := range []struct {
		body   string
		status int
		code   engine.Code
	}{
		{`{"attack": "melee", "attacker": {"x": 0, "y": 0}, "target": {"id": "t", "x": 3, "y": 0}}`, 422, engine.CodeOutOfRange},
		{`{"attack": "bite", "attacker": {"x": 0, "y": 0}, "target": {"id": "t", "x": 1, "y": 0}}`, 400, engine.CodeBadRequest},
		{`{"rules": "circle50", "attack": "melee", "attacker": {"x": 0, "y": 0}, "target": {"id": "t", "x": 1, "y": 0}}`, 400, engine.CodeBadRequest},
	} {
		w := call{"POST", "/v1/cover", "application/json", c.body}.do(t, h)
		if e := errorOf(t, w); w.Code != c.status || e.Code != c.code {
			t.Errorf("%s: %d %+v, want %d %s", c.body, w.Code, e, c.status, c.code)
		}
	}
	w := call{"POST", "/v1/cover", "application/json", `{"attack": "melee", "attacker": {"x": 0, "y": 0}, "target": {"id": "t", "x": 1, "y": 0}}`}.do(t, h)
	if w.Code != 200 || !strings.HasPrefix(w.Body.String(), `{"grade":"none","bonus":0,"blocked":0,`) {
		t.Errorf("melee, adjacent: %d %s", w.Code, w.Body)
	}
}
