package wire

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
)

// splitBoard takes the board out of an evaluate request's JSON: the board, the rest.
func splitBoard(t *testing.T, body []byte) (board, rest []byte) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, nil
	}
	b := map[string]json.RawMessage{}
	for _, k := range []string{"tokens", "obstacles", "walls", "bounds"} {
		if v, ok := m[k]; ok {
			b[k] = v
			delete(m, k)
		}
	}
	board, _ = json.Marshal(b)
	rest, _ = json.Marshal(m)
	return board, rest
}

// A corpusEntry is a request of the identity corpus (wasm/identity/requests.json).
type corpusEntry struct {
	Name string          `json:"name"`
	Door string          `json:"door"`
	Body json.RawMessage `json:"body"`
}

// identityCorpus reads the identity corpus.
func identityCorpus(t *testing.T) []corpusEntry {
	t.Helper()
	raw, err := os.ReadFile("../identity/requests.json")
	if err != nil {
		t.Fatal(err)
	}
	var corpus []corpusEntry
	if err := json.Unmarshal(raw, &corpus); err != nil {
		t.Fatal(err)
	}
	return corpus
}

// packObstacles packs obstacles as the loader does (UnpackObstacles's format): fills n/400, and
// a fill of 0 (a full block) as 400.
func packObstacles(obstacles []engine.Obstacle) []byte {
	var packed []byte
	for _, o := range obstacles {
		n := int32(o.Fill*400 + 0.5)
		if o.Fill == 0 {
			n = 400
		}
		for _, v := range [4]int32{int32(o.X), int32(o.Y), int32(o.Z), n} {
			packed = append(packed, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
		}
	}
	return packed
}

// Every evaluate request of the identity corpus (wasm/identity/requests.json), its board sent
// to a Scene and the rest evaluated against it, gets the bytes Evaluate gives for the whole
// request — or, where the board is bad, the same error from NewScene (a board's errors come
// from making the scene; the request's own, from evaluating it). And the board's obstacles
// packed (fills as the wire reads them, n/400) give the same answers as sent in JSON.
func TestScene_CorpusSameBytesAsEvaluate(t *testing.T) {
	same, boardErrors := 0, 0
	for _, e := range identityCorpus(t) {
		if e.Door != "evaluate" {
			continue
		}
		board, rest := splitBoard(t, e.Body)
		if board == nil {
			continue // not an object: no board to keep
		}
		want, werr := Evaluate(e.Body)
		s, serr := NewScene(board, nil)
		if serr != nil {
			boardErrors++
			if werr == nil || werr.Code != serr.Code {
				t.Errorf("%s: the scene refuses the board (%v), Evaluate answers %v", e.Name, serr, werr)
			}
			continue
		}
		got, gerr := s.Evaluate(rest)
		if (gerr == nil) != (werr == nil) || gerr != nil && *gerr != *werr || !bytes.Equal(got, want) {
			t.Errorf("%s: the scene answers\n%s %v\nEvaluate\n%s %v", e.Name, got, gerr, want, werr)
			continue
		}
		same++
		// The obstacles again, packed.
		b, derr := DecodeBoard(board)
		if derr != nil || len(b.Obstacles) == 0 {
			continue
		}
		packed := packObstacles(b.Obstacles)
		var m map[string]json.RawMessage
		json.Unmarshal(board, &m)
		delete(m, "obstacles")
		noObstacles, _ := json.Marshal(m)
		ps, perr := NewScene(noObstacles, packed)
		if perr != nil {
			t.Errorf("%s: packed obstacles refused: %v", e.Name, perr)
			continue
		}
		if got, _ := ps.Evaluate(rest); !bytes.Equal(got, want) {
			t.Errorf("%s: with packed obstacles the scene answers\n%s\nwant\n%s", e.Name, got, want)
		}
	}
	t.Logf("%d corpus requests answered alike, %d boards refused alike", same, boardErrors)
	if same < 50 {
		t.Errorf("only %d corpus requests compared", same)
	}
}

// Packed obstacles: their errors, and the bound on their bytes.
func TestUnpackObstacles(t *testing.T) {
	quad := func(v ...int32) []byte {
		var b []byte
		for _, x := range v {
			b = append(b, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
		}
		return b
	}
	got, err := UnpackObstacles(quad(1, -2, 3, 400, -7, 8, 0, 1))
	if err != nil || len(got) != 2 || got[0] != (engine.Obstacle{X: 1, Y: -2, Z: 3, Fill: 1}) || got[1] != (engine.Obstacle{X: -7, Y: 8, Fill: 1.0 / 400}) {
		t.Errorf("UnpackObstacles = %+v, %v", got, err)
	}
	for _, c := range []struct {
		packed []byte
		code   engine.Code
		msg    string
	}{
		{quad(1, 2, 3), engine.CodeBadRequest, "obstacles (packed): 12 bytes, not a whole number"},
		{quad(1, 2, 3, 0), engine.CodeBadRequest, "obstacles (packed)[0]: fill 0 is not 1 … 400"},
		{quad(1, 2, 3, 400, 1, 2, 3, 401), engine.CodeBadRequest, "obstacles (packed)[1]: fill 401"},
		{quad(1, 2, 3, 400, 1, engine.MaxCoord+1, 3, 400), engine.CodeTooLarge, "obstacles (packed)[1]: coordinates past ±1000000"},
		{quad(0, 0, -engine.MaxCoord-1, 400), engine.CodeTooLarge, "obstacles (packed)[0]: coordinates past ±1000000"},
		{quad(-2147483648, 0, 0, 400), engine.CodeTooLarge, "obstacles (packed)[0]: coordinates past ±1000000"},
		{make([]byte, MaxPacked+16), engine.CodeTooLarge, "obstacles (packed): 250001 obstacles, past the limit of 250000"},
	} {
		// Each names the field at fault (CONTRACT Errors: field), as engine.FieldOf reads it.
		if _, err := UnpackObstacles(c.packed); err == nil || err.Code != c.code || !strings.HasPrefix(err.Message, c.msg) || err.Field != "obstacles" || err.Field != engine.FieldOf(err.Message) {
			t.Errorf("UnpackObstacles(%d bytes) = %+v; want %s %q…, field obstacles", len(c.packed), err, c.code, c.msg)
		}
	}
	// A board's JSON obstacles and its packed ones count together.
	many := make([]byte, 16*engine.MaxObstacles)
	for i := 0; i < len(many); i += 16 {
		many[i+12] = 1
	}
	if _, err := NewScene([]byte(`{"obstacles": [{"x": 1}]}`), many); err == nil || err.Code != engine.CodeTooLarge || err.Field != "obstacles" {
		t.Errorf("MaxObstacles packed and one in JSON: %v; want too_large", err)
	}
}

// A scene's edits through the wire: the JSON of an edit, refused whole, or applied.
func TestScene_Update(t *testing.T) {
	s, err := NewScene([]byte(`{"tokens": [{"id": "a", "x": 1, "y": 1}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	req := []byte(`{"template": "Cir1h1", "origin": {"x": 1, "y": 1, "z": 0}}`)
	before, _ := s.Evaluate(req)
	for _, bad := range []string{`[]`, `{"remove": ["zz"]}`, `{"tokens": [{"id": "b"}, {"id": "b"}]}`, `{"walls": [{"a": [0, 0], "b": [0, 0]}]}`, `{"clear": [[1, 2]]}`, `{"noBounds": 1}`} {
		if err := s.Update([]byte(bad), nil); err == nil {
			t.Errorf("Update(%s) accepted", bad)
		}
		if after, _ := s.Evaluate(req); !bytes.Equal(after, before) {
			t.Errorf("the refused Update(%s) changed the answer", bad)
		}
	}
	if err := s.Update([]byte(`{"tokens": [{"id": "a", "x": 9, "y": 9}]}`), nil); err != nil {
		t.Fatal(err)
	}
	if after, _ := s.Evaluate(req); !bytes.Contains(after, []byte(`"targets":[]`)) {
		t.Errorf("after the token moved away: %s", after)
	}
}

// FuzzScene: a board and edits from arbitrary bytes (split at 0x00) through a Scene: nothing
// panics or fails internally, a refused edit changes no answer, and after every edit the
// scene answers a fixed request with the bytes Evaluate gives with the scene's board in it.
func FuzzScene(f *testing.F) {
	f.Add([]byte(`{"tokens": [{"id": "a", "x": 1, "y": 1}]}` + "\x00" + `{"obstacles": [{"x": 2, "y": 1}]}` + "\x00" + `{"remove": ["a"]}`))
	f.Add([]byte(`{}` + "\x00" + `{"walls": [{"a": [2, 0], "b": [2, 4]}], "bounds": {"min": [0, 0, 0], "max": [5, 5, 0]}}` + "\x00" + `{"noBounds": true, "clear": [[2, 1, 0]]}`))
	f.Add([]byte(`{"obstacles": [{"x": 1, "fill": 0.5}]}` + "\x00" + `{"tokens": [{"id": "b", "x": 2, "y": 2, "size": "Large"}]}` + "\x00" + `{"walls": []}`))
	req := []byte(`{"template": "2 burst", "caster": {"id": "me", "x": 2, "y": 2, "z": 0}}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		parts := bytes.Split(data, []byte{0})
		s, err := NewScene(parts[0], nil)
		if err != nil {
			if Internal(err) {
				t.Fatalf("NewScene: %v", err)
			}
			return
		}
		for _, edit := range parts[1:] {
			before, berr := s.Evaluate(req)
			if err := s.Update(edit, nil); err != nil {
				if Internal(err) {
					t.Fatalf("Update(%q): %v", edit, err)
				}
				if after, aerr := s.Evaluate(req); !bytes.Equal(after, before) || (aerr == nil) != (berr == nil) {
					t.Fatalf("the refused Update(%q) changed the answer", edit)
				}
				continue
			}
			got, gerr := s.Evaluate(req)
			b := s.s.Board()
			full := *mustDecode(t, req)
			full.Tokens, full.Obstacles, full.Walls, full.Bounds = b.Tokens, b.Obstacles, b.Walls, b.Bounds
			want, werr := engine.Evaluate(&full)
			if (gerr == nil) != (werr == nil) {
				t.Fatalf("after Update(%q): the scene %v, stateless %v", edit, gerr, werr)
			}
			if gerr == nil {
				if w, _ := encode(want); !bytes.Equal(got, w) {
					t.Fatalf("after Update(%q): the scene answers\n%s\nstateless\n%s", edit, got, w)
				}
			}
		}
	})
}

func mustDecode(t *testing.T, body []byte) *engine.Request {
	r, err := DecodeRequest(body)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
