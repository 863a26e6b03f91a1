//go:build js && wasm

package jsapi

import (
	"strconv"
	"strings"
	"syscall/js"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/internal/limits"
)

// TestRegisterRefusesTooLarge: the module itself — called without the loader, which checks
// first — refuses a request past limits.MaxBody bytes of UTF-8 with too_large, before handing
// it to the engine, and says so on the target (maxBody) for the loader.
func TestRegisterRefusesTooLarge(t *testing.T) {
	seen := 0
	o := registered(t, []Export{{Name: "parse", Handle: func(body []byte) ([]byte, *engine.Error) {
		seen = len(body)
		return []byte(`{}`), nil
	}}})
	if got := o.Get("maxBody"); got.Type() != js.TypeNumber || got.Int() != limits.MaxBody {
		t.Errorf("maxBody = %v; want %d", got, limits.MaxBody)
	}
	for _, c := range []struct {
		name   string
		body   string
		tooBig bool
		msg    string
	}{
		{"exactly the limit", strings.Repeat("x", limits.MaxBody), false, ""},
		{"one byte more", strings.Repeat("x", limits.MaxBody+1), true, "parse: the request is at least 1048577 bytes of JSON; the limit is 1 MiB (1048576 bytes)"},
		{"the limit in two-byte characters", strings.Repeat("é", limits.MaxBody/2), false, ""},
		{"one two-byte character more", strings.Repeat("é", limits.MaxBody/2+1), true, "parse: the request is 1048578 bytes of JSON; the limit is 1 MiB (1048576 bytes)"},
		{"three-byte characters, a third of the limit", strings.Repeat("€", limits.MaxBody/3), false, ""},
		{"three-byte characters, fewer than the limit", strings.Repeat("€", limits.MaxBody/3+1), true, ""},
		{"ten times the limit", strings.Repeat("x", 10*limits.MaxBody), true, ""},
	} {
		seen = -1
		v := o.Call("parse", c.body)
		if !c.tooBig {
			if v.Type() != js.TypeString || seen != len(c.body) {
				t.Errorf("%s: %v, the handler saw %d bytes", c.name, v, seen)
			}
			continue
		}
		checkError(t, c.name, v, engine.CodeTooLarge, 0)
		if seen != -1 {
			t.Errorf("%s: the handler saw %d bytes", c.name, seen)
		}
		msg := v.Get("message").String()
		if c.msg != "" && msg != c.msg {
			t.Errorf("%s: %q; want %q", c.name, msg, c.msg)
		}
		if !strings.Contains(msg, "1 MiB (1048576 bytes)") || !strings.Contains(msg, strconv.Itoa(limits.MaxBody)) {
			t.Errorf("%s: %q does not name the limit", c.name, msg)
		}
	}
}
