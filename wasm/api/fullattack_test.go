package api

import (
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
)

// TestFullAttackStatuses: POST /v1/full-attack answers an illegal step with 422 and its index in
// "at" (0 included), a malformed request with 400 (with "at" when it is about a step), a request
// past fullattack's limits with 400 too_large, and a body past 1 MiB with 413.
func TestFullAttackStatuses(t *testing.T) {
	h := New()
	for _, c := range []struct {
		body   string
		status int
		code   engine.Code
		at     string // the error's "at" as sent, "" for none
	}{
		{`{"bab": 1, "steps": [{"attack": "main"}, {"attack": "main"}]}`, 422, engine.CodeNoAttackLeft, `"at":1`},
		{`{"feats": ["quickDraw"], "holding": {"main": {"id": "a", "kind": "light"}}, "steps": [{"draw": "main", "item": {"id": "b", "kind": "light"}}]}`,
			422, engine.CodeHandBusy, `"at":0`},
		{`{"steps": [{"draw": "main", "item": {"id": "b", "kind": "light"}}]}`, 422, engine.CodeNeedsQuickDraw, `"at":0`},
		{`{"steps": [{"attack": "main", "throw": true}]}`, 422, engine.CodeNotRanged, `"at":0`},
		{`{"steps": [{"drop": "off"}, {"attack": "main", "extra": true}]}`, 400, engine.CodeBadRequest, `"at":0`},
		{`{"steps": [{"attack": "main", "extra": true}]}`, 422, engine.CodeNotDeclared, `"at":0`},
		{`{"bab": 41}`, 400, engine.CodeBadRequest, ""},
		{`{"bab": "1"}`, 400, engine.CodeBadRequest, ""},
		{`{"steps": [` + strings.Repeat(`{},`, 64) + `{}]}`, 400, engine.CodeTooLarge, ""},
		{`{"steps": [{"attack": "` + strings.Repeat("x", MaxBody) + `"}]}`, 413, engine.CodeTooLarge, ""},
	} {
		w := call{"POST", "/v1/full-attack", "application/json", c.body}.do(t, h)
		e := errorOf(t, w)
		if w.Code != c.status || e.Code != c.code || strings.Contains(w.Body.String(), `"at":`) != (c.at != "") ||
			!strings.Contains(w.Body.String(), c.at+"}") {
			t.Errorf("%.100s: %d %.200s, want %d %s %s", c.body, w.Code, w.Body, c.status, c.code, c.at)
		}
	}
	w := call{"POST", "/v1/full-attack", "application/json", `{"bab": 6, "holding": {"main": {"id": "longsword", "kind": "oneHanded"}}, "steps": [{"attack": "main"}]}`}.do(t, h)
	if w.Code != 200 || !strings.HasPrefix(w.Body.String(), `{"steps":[{"attack":"main","with":"longsword","as":"primary","bonus":6,`) {
		t.Errorf("one attack: %d %s", w.Code, w.Body)
	}
}
