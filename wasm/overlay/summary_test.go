package main

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/aoekit/aoekit/wasm/wire"
)

func TestSummary(t *testing.T) {
	sc := testScene(t, testRequest)
	got := string(summary(sc.res, false))
	want := `{"count":25,"targets":[{"id":"g1","inArea":true,"affected":true,"cover":"none","bonus":0},` +
		`{"id":"g2","inArea":true,"affected":false,"reason":"cover","cover":"full","bonus":0}]}`
	if got != want {
		t.Errorf("summary\n got %s\nwant %s", got, want)
	}
}

// The summary is evaluate's answer without cells and lines: the same values under the same
// names, for any request.
func TestSummaryIsTheResult(t *testing.T) {
	for _, body := range []string{
		testRequest,
		`{"template": "Cir1h1", "origin": {"x": 5, "y": 5}}`,
		`{"rules": "tdgs", "template": "Con4NE", "caster": {"id": "hero", "x": 5, "y": 5, "side": "party"}, "range": 20,
		  "tokens": [{"id": "g1", "x": 7, "y": 3, "side": "enemy"}, {"id": "ally \"q\"\n\u2028é", "x": 6, "y": 2, "side": "party"}],
		  "obstacles": [{"x": 6, "y": 3, "fill": 0.5}], "bounds": {"min": [0, 0, 0], "max": [59, 59, 0]},
		  "targeting": {"trait": "alliesExcluded"}, "resolve": {"stat": 7, "seed": 42}}`,
	} {
		full, err := wire.Evaluate([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		type target struct {
			ID       string `json:"id"`
			InArea   bool   `json:"inArea"`
			Affected bool   `json:"affected"`
			Reason   string `json:"reason,omitempty"`
			Cover    string `json:"cover"`
			Bonus    int    `json:"bonus"`
		}
		type short struct {
			Count   int      `json:"count"`
			Targets []target `json:"targets"`
		}
		var want, got short
		if err := json.Unmarshal(full, &want); err != nil {
			t.Fatal(err)
		}
		s := summary(testScene(t, body).res, false)
		if err := json.Unmarshal(s, &got); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("summary %s\nwant %+v", s, want)
		}
		var fields []map[string]any
		var outer struct{ Targets []map[string]any }
		json.Unmarshal(s, &outer)
		fields = outer.Targets
		for _, f := range fields {
			if _, ok := f["lines"]; ok {
				t.Error("the summary carries lines")
			}
		}
	}
}

// With details, the summary is evaluate's whole answer but its cells and each target's lines,
// with each target's total, the length of its lines — for any request, read back by
// encoding/json and compared field by field with wire.Evaluate's answer.
func TestSummaryDetails(t *testing.T) {
	for _, body := range []string{
		testRequest,
		`{"template": "Cir1h1", "origin": {"x": 5, "y": 5}}`,
		`{"rules": "tdgs", "template": "Con4NE", "caster": {"id": "hero", "x": 5, "y": 5, "side": "party", "facing": "E"}, "range": 20,
		  "tokens": [{"id": "g1", "x": 7, "y": 3, "side": "enemy"}, {"id": "ally \"q\"\n\u2028é", "x": 6, "y": 2, "side": "party"}],
		  "obstacles": [{"x": 6, "y": 3, "fill": 0.5}], "bounds": {"min": [0, 0, 0], "max": [59, 59, 0]},
		  "resolve": {"stat": 7, "seed": 42, "luck": 12, "defence": {"g1": 3}}}`,
		`{"template": "3 burst", "caster": {"id": "c", "x": 2, "y": 2}, "tokens": [{"id": "t", "x": 4, "y": 2}], "resolve": {"stat": 2, "seed": 7}}`,
		// A point-origin cone: its origin is a point, the middle of the caster's east face (6, 5.5, 0.5).
		`{"rules": "dnd5e", "template": "15-foot cone", "caster": {"id": "c", "x": 5, "y": 5}, "toward": "E",
		  "tokens": [{"id": "t", "x": 7, "y": 5}, {"id": "u", "x": 8, "y": 5}], "bounds": {"min": [0, 0, 0], "max": [19, 19, 0]}}`,
	} {
		full, err := wire.Evaluate([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		var want map[string]any
		if err := json.Unmarshal(full, &want); err != nil {
			t.Fatal(err)
		}
		delete(want, "cells")
		for _, x := range want["targets"].([]any) {
			m := x.(map[string]any)
			m["total"] = float64(len(m["lines"].([]any)))
			delete(m, "lines")
		}
		s := summary(testScene(t, body).res, true)
		var got map[string]any
		if err := json.Unmarshal(s, &got); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("summary with details %s\nwant %v", s, want)
		}
	}
}

// wire.AppendString (the summary's strings) writes what encoding/json reads back as encoding/json's own encoding of s.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "g1", "a\"b\\c", "\x00\x1f\n\r\t", "é✓😀", "\u2028\u2029", "\xff\xfe", "a\xc3", "<&>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := wire.AppendString(nil, s)
		var got string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%q → %s: %v", s, out, err)
		}
		ref, _ := json.Marshal(s)
		var want string
		json.Unmarshal(ref, &want)
		if got != want {
			t.Fatalf("%q → %s → %q, want %q", s, out, got, want)
		}
	})
}
