//go:build !js

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/wasm/api"
)

// The README's HTTP API section documents each endpoint as a ```sh block holding one curl
// command, followed by a ```json block holding the exact answer. TestREADME runs every such
// command against the real handler and compares the answers, so that the documentation cannot
// drift from the code. A "# → 422" line in the sh block gives the expected status; without
// one the status must be 200.

// An example is one curl command of README.md and the answer documented for it.
type example struct {
	line     int    // 1-based line of the curl command
	command  string // the command, continuation lines joined
	status   int    // the documented status; 0 when none is (then 200)
	want     string // the documented answer
	wantLine int    // 1-based line of the ```json fence
}

// statusComment matches "# → 400" (or "# -> 400") in an sh block.
var statusComment = regexp.MustCompile(`^#\s*(?:→|->)\s*(\d{3})\s*$`)

// readmeExamples extracts the examples of a Markdown text: every ```sh (or ```bash) block whose
// command is a curl command, and the ```json block that must follow it, with only blank lines
// between. Blocks without curl (how to start the server) are not examples.
func readmeExamples(text string) ([]example, error) {
	lines := strings.Split(text, "\n")
	var out []example
	for i := 0; i < len(lines); i++ {
		lang, ok := fence(lines[i])
		if !ok {
			continue
		}
		start := i
		body, end, err := fenced(lines, i)
		if err != nil {
			return nil, err
		}
		i = end
		if lang != "sh" && lang != "bash" {
			continue
		}
		ex, isCurl, err := curlBlock(body, start+2)
		if err != nil {
			return nil, err
		}
		if !isCurl {
			continue
		}
		j := end + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if lang, ok := fence(safeLine(lines, j)); !ok || lang != "json" {
			return nil, fmt.Errorf("line %d: the curl example is not followed by a ```json block with its answer (line %d is %q)", ex.line, j+1, safeLine(lines, j))
		}
		want, jend, err := fenced(lines, j)
		if err != nil {
			return nil, err
		}
		ex.want, ex.wantLine = strings.Join(want, "\n"), j+1
		out = append(out, ex)
		i = jend
	}
	return out, nil
}

func safeLine(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(the end of the file)"
}

// fence reports whether line opens or closes a fenced code block, and its language.
func fence(line string) (lang string, ok bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || !strings.HasPrefix(t, "```") {
		return "", false
	}
	return strings.TrimSpace(strings.TrimPrefix(t, "```")), true
}

// fenced returns the lines inside the block whose opening fence is lines[open], and the index
// of its closing fence.
func fenced(lines []string, open int) ([]string, int, error) {
	for k := open + 1; k < len(lines); k++ {
		if lang, ok := fence(lines[k]); ok {
			if lang != "" {
				return nil, 0, fmt.Errorf("line %d: a ``` block opened at line %d is not closed before a new one opens", k+1, open+1)
			}
			return lines[open+1 : k], k, nil
		}
	}
	return nil, 0, fmt.Errorf("line %d: the ``` block is never closed", open+1)
}

// curlBlock reads an sh block whose first line is README line first: its status comment and
// its one command. isCurl is false when the block runs no curl command.
func curlBlock(body []string, first int) (ex example, isCurl bool, err error) {
	var commands []example
	for k := 0; k < len(body); k++ {
		line := strings.TrimSpace(body[k])
		if m := statusComment.FindStringSubmatch(line); m != nil {
			ex.status, _ = strconv.Atoi(m[1])
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := example{line: first + k, command: line}
		for strings.HasSuffix(c.command, `\`) && k+1 < len(body) {
			k++
			c.command = strings.TrimSpace(strings.TrimSuffix(c.command, `\`)) + " " + strings.TrimSpace(body[k])
		}
		commands = append(commands, c)
	}
	curl := false
	for _, c := range commands {
		if c.command == "curl" || strings.HasPrefix(c.command, "curl ") {
			curl = true
		}
	}
	if !curl {
		return ex, false, nil
	}
	if len(commands) != 1 {
		return ex, true, fmt.Errorf("line %d: a curl example block holds exactly one command, not %d", commands[0].line, len(commands))
	}
	ex.line, ex.command = commands[0].line, commands[0].command
	return ex, true, nil
}

// shellWords splits a command line as a POSIX shell would for the simple commands of the
// README: words separated by blanks, single quotes (everything literal up to the next '),
// double quotes (\ escapes only $ ` " \) and backslash escapes outside quotes. Anything that
// would make the shell do more than run one command (pipes, redirections, expansions,
// separators) is an error, so that a documented command means what the test runs.
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	end := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	r := []rune(s)
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			end()
		case c == '\'':
			j := i + 1
			for j < len(r) && r[j] != '\'' {
				j++
			}
			if j == len(r) {
				return nil, errors.New("unterminated single quote")
			}
			w.WriteString(string(r[i+1 : j]))
			inWord, i = true, j
		case c == '"':
			j := i + 1
			for ; j < len(r) && r[j] != '"'; j++ {
				switch {
				case r[j] == '\\' && j+1 < len(r) && strings.ContainsRune("$`\"\\", r[j+1]):
					j++
					w.WriteRune(r[j])
				case r[j] == '$' || r[j] == '`':
					return nil, fmt.Errorf("unsupported expansion %q inside double quotes", r[j])
				default:
					w.WriteRune(r[j])
				}
			}
			if j == len(r) {
				return nil, errors.New("unterminated double quote")
			}
			inWord, i = true, j
		case c == '\\':
			if i+1 == len(r) {
				return nil, errors.New("a backslash ends the command")
			}
			i++
			w.WriteRune(r[i])
			inWord = true
		case c == '#' && !inWord:
			end()
			return words, nil // a comment runs to the end of the line
		case strings.ContainsRune("|&;<>()$`*?[]{}~", c):
			return nil, fmt.Errorf("unsupported shell syntax %q: write one plain curl command", c)
		default:
			w.WriteRune(c)
			inWord = true
		}
	}
	end()
	return words, nil
}

// A curlRequest is what a curl command line asks for.
type curlRequest struct {
	method string
	url    *url.URL
	header http.Header
	body   *string // nil: no body
}

// parseCurl reads the curl options the README uses: -s/-S, -X, -H, -d and its --data forms,
// --json and one URL. Any other option is an error, since the test could not honour it. As
// curl does, -d makes the method POST and, without a Content-Type header, sends
// application/x-www-form-urlencoded; several -d are joined with &.
func parseCurl(args []string) (*curlRequest, error) {
	if len(args) == 0 || args[0] != "curl" {
		return nil, errors.New("not a curl command")
	}
	req := &curlRequest{header: http.Header{}}
	var data []string
	rawURL := ""
	for i := 1; i < len(args); i++ {
		a := args[i]
		value := func() (string, error) {
			if i+1 == len(args) {
				return "", fmt.Errorf("%s needs a value", a)
			}
			i++
			return args[i], nil
		}
		switch a {
		case "-s", "--silent", "-S", "--show-error", "-sS", "-Ss":
		case "-X", "--request":
			v, err := value()
			if err != nil {
				return nil, err
			}
			req.method = v
		case "-H", "--header":
			v, err := value()
			if err != nil {
				return nil, err
			}
			name, val, ok := strings.Cut(v, ":")
			if !ok || strings.TrimSpace(name) == "" {
				return nil, fmt.Errorf("header %q is not Name: value", v)
			}
			req.header.Add(strings.TrimSpace(name), strings.TrimSpace(val))
		case "-d", "--data", "--data-raw", "--data-binary", "--json":
			v, err := value()
			if err != nil {
				return nil, err
			}
			if a != "--data-raw" && strings.HasPrefix(v, "@") {
				return nil, fmt.Errorf("%s %s reads a file: put the body in the command", a, v)
			}
			if a == "--json" {
				req.header.Set("Content-Type", "application/json")
				req.header.Set("Accept", "application/json")
			}
			data = append(data, v)
		default:
			if strings.HasPrefix(a, "-") {
				return nil, fmt.Errorf("unsupported curl option %s", a)
			}
			if rawURL != "" {
				return nil, fmt.Errorf("two URLs: %s and %s", rawURL, a)
			}
			rawURL = a
		}
	}
	if rawURL == "" {
		return nil, errors.New("no URL")
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("URL %q is not an http(s) URL", rawURL)
	}
	req.url = u
	if data != nil {
		body := strings.Join(data, "&")
		req.body = &body
		if req.header.Get("Content-Type") == "" {
			req.header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	}
	if req.method == "" {
		req.method = http.MethodGet
		if req.body != nil {
			req.method = http.MethodPost
		}
	}
	return req, nil
}

// decodeJSON decodes exactly one JSON value.
func decodeJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// jsonDiff describes the first difference between two decoded JSON values, or returns "".
func jsonDiff(path string, want, got any) string {
	show := func(v any) string {
		b, _ := json.Marshal(v)
		if len(b) > 200 {
			return string(b[:200]) + "…"
		}
		return string(b)
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range w {
			keys[k] = true
		}
		for k := range g {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			wv, inW := w[k]
			gv, inG := g[k]
			switch {
			case !inG:
				return fmt.Sprintf("%s.%s: documented as %s, absent from the answer", path, k, show(wv))
			case !inW:
				return fmt.Sprintf("%s.%s: not documented, the answer has %s", path, k, show(gv))
			}
			if d := jsonDiff(path+"."+k, wv, gv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok {
			break
		}
		for i := 0; i < len(w) && i < len(g); i++ {
			if d := jsonDiff(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); d != "" {
				return d
			}
		}
		if len(w) != len(g) {
			return fmt.Sprintf("%s: documented with %d elements, the answer has %d", path, len(w), len(g))
		}
		return ""
	}
	if !reflect.DeepEqual(want, got) {
		return fmt.Sprintf("%s: documented as %s, the answer is %s", path, show(want), show(got))
	}
	return ""
}

// run sends the example's request to h and returns the status, Content-Type and body.
func (ex example) run(h http.Handler) (status int, contentType, body string, err error) {
	args, err := shellWords(ex.command)
	if err != nil {
		return 0, "", "", err
	}
	c, err := parseCurl(args)
	if err != nil {
		return 0, "", "", err
	}
	var rd io.Reader
	if c.body != nil {
		rd = strings.NewReader(*c.body)
	}
	req := httptest.NewRequest(c.method, c.url.RequestURI(), rd)
	req.Host = c.url.Host
	for name, values := range c.header {
		req.Header[name] = values
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Header().Get("Content-Type"), rec.Body.String(), nil
}

// TestREADME runs the curl examples of this folder's README (which must document every
// endpoint and an error) and of the repository's README (whatever it shows).
func TestREADME(t *testing.T) {
	checkREADME(t, "README.md", []string{"GET /v1/version", "POST /v1/parse", "POST /v1/evaluate", "POST /v1/move", "POST /v1/cover", "POST /v1/full-attack", "error"})
	checkREADME(t, "../../README.md", nil)
}

func checkREADME(t *testing.T, name string, needs []string) {
	text, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	examples, err := readmeExamples(string(text))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(examples) == 0 {
		t.Fatal(name + " has no curl example (a ```sh block with one curl command, then a ```json block with its answer): the HTTP API section must show its endpoints")
	}
	h := newHandler(api.Options{}) // as both builds serve it
	covered := map[string]bool{}
	failures := 0
	for _, ex := range examples {
		ok := t.Run(fmt.Sprintf("%s:%d", name, ex.line), func(t *testing.T) {
			status, ctype, body, err := ex.run(h)
			if err != nil {
				t.Fatalf("%s:%d: %v\n\t%s", name, ex.line, err, ex.command)
			}
			if args, _ := shellWords(ex.command); len(args) > 0 {
				c, _ := parseCurl(args)
				covered[c.method+" "+c.url.Path] = true
			}
			if status >= 400 {
				covered["error"] = true
			}
			wantStatus := ex.status
			if wantStatus == 0 {
				wantStatus = http.StatusOK
			}
			if status != wantStatus {
				t.Errorf("%s:%d: status %d, documented %d (add or fix a \"# → %d\" line in the sh block)\n\tanswer: %s", name, ex.line, status, wantStatus, status, body)
			}
			if ctype != "application/json" {
				t.Errorf("%s:%d: Content-Type %q, want application/json", name, ex.line, ctype)
			}
			want, err := decodeJSON(ex.want)
			if err != nil {
				t.Fatalf("%s:%d: the documented answer is not one JSON value: %v", name, ex.wantLine, err)
			}
			got, err := decodeJSON(body)
			if err != nil {
				t.Fatalf("%s:%d: the answer is not one JSON value: %v\n%s", name, ex.line, err, body)
			}
			if !reflect.DeepEqual(want, got) {
				t.Errorf("%s:%d: the answer differs from the JSON documented at line %d:\n\t%s\nthe whole answer:\n\t%s",
					name, ex.line, ex.wantLine, jsonDiff("$", want, got), body)
			}
		})
		if !ok {
			failures++
		}
	}
	if failures > 0 {
		t.Errorf("%d of %d examples of %s differ from the handler's answers", failures, len(examples), name)
	}
	for _, need := range needs {
		if !covered[need] {
			t.Errorf("%s has no curl example of %s", name, need)
		}
	}
}

func TestShellWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`curl -s http://x/v1/version`, []string{"curl", "-s", "http://x/v1/version"}},
		{`curl -d '{"text": "Con4NE"}'`, []string{"curl", "-d", `{"text": "Con4NE"}`}},
		{`a  'b c'd"e f"\ g ''`, []string{"a", "b cde f g", ""}},
		{`a "x\"y\\z\n"`, []string{"a", `x"y\z\n`}},
		{`a 'it'\''s' # a comment`, []string{"a", "it's"}},
		{`a b#c`, []string{"a", "b#c"}},
	} {
		got, err := shellWords(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("shellWords(%s) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{`a 'b`, `a "b`, `a | jq`, `a > out`, `a; b`, `a $HOME`, `a "$HOME"`, `a \`, "a `b`"} {
		if got, err := shellWords(in); err == nil {
			t.Errorf("shellWords(%s) = %q, want an error", in, got)
		}
	}
}

func TestParseCurl(t *testing.T) {
	c, err := parseCurl([]string{"curl", "-s", "-X", "POST", "http://127.0.0.1:8787/v1/parse?x=1", "-H", "Content-Type: application/json", "-d", `{"text": "Cir1"}`})
	if err != nil || c.method != "POST" || c.url.RequestURI() != "/v1/parse?x=1" || c.header.Get("Content-Type") != "application/json" || c.body == nil || *c.body != `{"text": "Cir1"}` {
		t.Errorf("parseCurl = %+v, %v", c, err)
	}
	// As curl: -d alone means POST with a form content type; no -d means GET without a body.
	if c, err := parseCurl([]string{"curl", "-d", "a", "-d", "b", "http://h/p"}); err != nil || c.method != "POST" || *c.body != "a&b" || c.header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		t.Errorf("parseCurl with -d = %+v, %v", c, err)
	}
	if c, err := parseCurl([]string{"curl", "http://h/v1/version"}); err != nil || c.method != "GET" || c.body != nil {
		t.Errorf("parseCurl without -d = %+v, %v", c, err)
	}
	for _, args := range [][]string{
		{"curl"}, {"wget", "http://h/"}, {"curl", "-i", "http://h/"}, {"curl", "-d", "@body.json", "http://h/"},
		{"curl", "http://h/a", "http://h/b"}, {"curl", "-H", "nocolon", "http://h/"}, {"curl", "ftp://h/"}, {"curl", "-X"},
	} {
		if c, err := parseCurl(args); err == nil {
			t.Errorf("parseCurl(%q) = %+v, want an error", args, c)
		}
	}
}

func TestReadmeExamplesExtraction(t *testing.T) {
	const good = "# API\n\n```sh\nmake serve-api\n```\n\n```sh\n# → 404\ncurl -s \\\n  http://h/nowhere\n```\n\n```json\n{\"a\": 1}\n```\n"
	ex, err := readmeExamples(good)
	if err != nil || len(ex) != 1 || ex[0].line != 9 || ex[0].status != 404 || ex[0].command != "curl -s http://h/nowhere" || ex[0].want != `{"a": 1}` || ex[0].wantLine != 13 {
		t.Fatalf("readmeExamples = %+v, %v", ex, err)
	}
	for name, text := range map[string]string{
		"no answer":         "```sh\ncurl -s http://h/\n```\n\nSome prose.\n\n```json\n{}\n```\n",
		"two commands":      "```sh\ncurl -s http://h/a\ncurl -s http://h/b\n```\n```json\n{}\n```\n",
		"unclosed":          "```sh\ncurl -s http://h/a\n",
		"unclosed answer":   "```sh\ncurl -s http://h/a\n```\n```json\n{}\n",
		"answer in js":      "```sh\ncurl -s http://h/a\n```\n```js\n{}\n```\n",
		"end after command": "```sh\ncurl -s http://h/a\n```\n",
	} {
		if ex, err := readmeExamples(text); err == nil {
			t.Errorf("%s: readmeExamples = %+v, want an error", name, ex)
		}
	}
	if ex, err := readmeExamples("no examples at all\n"); err != nil || len(ex) != 0 {
		t.Errorf("readmeExamples without examples = %+v, %v", ex, err)
	}
}
