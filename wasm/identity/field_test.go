package main

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// step is one step of a field path, read by its own expression here (not engine.FieldOf): a
// name at the start or after a dot, an index in brackets, or a quoted key in brackets.
var step = regexp.MustCompile(`^(?:\.?([A-Za-z][A-Za-z0-9]*)|\[([0-9]+)\]|\[("(?:[^"\\]|\\.)*")\])`)

// prefixes are the paths path's steps lead to, one per step (nil when path is not a path).
func prefixes(path string) []string {
	var out []string
	for rest := path; rest != ""; {
		m := step.FindStringSubmatch(rest)
		if m == nil {
			return nil
		}
		rest = rest[len(m[0]):]
		out = append(out, path[:len(path)-len(rest)])
	}
	return out
}

// TestErrorFields: every error of the corpus that names a field names one of its request, by
// CONTRACT's path grammar. The message starts with the path (a notation error's message starts
// with the notation, which the path leads to); the path leads to a value of the request, or, for
// a field that is missing, the message says that it is required or needed. Errors that name no
// field are about no one field: a notation given to parse, no line of effect, a rule between
// several fields.
func TestErrorFields(t *testing.T) {
	entries, err := loadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	named, unnamed := 0, 0
	for _, e := range entries {
		status, body := wireDoor(e)
		if status == 200 {
			continue
		}
		var answer struct {
			Error struct {
				Code    string  `json:"code"`
				Message string  `json:"message"`
				Field   *string `json:"field"`
			} `json:"error"`
		}
		if err := json.Unmarshal(body, &answer); err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		a := answer.Error
		if a.Field == nil {
			unnamed++
			continue
		}
		named++
		f := *a.Field
		steps := prefixes(f)
		found := 0
		for found < len(steps) && fieldValue(e.Body, steps[found]) != nil {
			found++
		}
		switch {
		case f == "":
			t.Errorf("%s: an empty field (it should be absent)", e.Name)
		case steps == nil:
			t.Errorf("%s: field %q is not a path of CONTRACT's grammar", e.Name, f)
		case a.Code == "bad_notation":
			var text string
			if json.Unmarshal(fieldValue(e.Body, f), &text) != nil || !strings.HasPrefix(a.Message, text) {
				t.Errorf("%s: bad notation at %q, which does not lead to the notation the message starts with: %s", e.Name, f, a.Message)
			}
		case !strings.HasPrefix(a.Message, f):
			t.Errorf("%s: field %q, but the message does not start with it: %s", e.Name, f, a.Message)
		case found < len(steps) && !strings.Contains(a.Message, "required") && !strings.Contains(a.Message, "needs"):
			t.Errorf("%s: field %q leads nowhere in the request (%d of %d steps), and the message does not say it is missing: %s",
				e.Name, f, found, len(steps), a.Message)
		}
	}
	t.Logf("%d errors name a field, %d none", named, unnamed)
	if named < 20 || unnamed < 10 {
		t.Errorf("%d errors name a field and %d none: the corpus should have many of both", named, unnamed)
	}
}

// fieldValue is the JSON at path in body (nil when it leads nowhere).
func fieldValue(body json.RawMessage, path string) json.RawMessage {
	v := body
	for path != "" {
		m := step.FindStringSubmatch(path)
		if m == nil {
			return nil
		}
		path = path[len(m[0]):]
		if m[2] != "" {
			var a []json.RawMessage
			i, _ := strconv.Atoi(m[2])
			if json.Unmarshal(v, &a) != nil || i >= len(a) {
				return nil
			}
			v = a[i]
			continue
		}
		key := m[1]
		if m[3] != "" {
			key, _ = strconv.Unquote(m[3])
		}
		var o map[string]json.RawMessage
		if json.Unmarshal(v, &o) != nil {
			return nil
		}
		v = o[key]
	}
	return v
}
