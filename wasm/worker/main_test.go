//go:build !js

package main

import (
	"bufio"
	"bytes"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aoekit/aoekit/wasm/api"
)

func TestAccessLog(t *testing.T) {
	var out bytes.Buffer
	h := accessLog(&out, newHandler(api.Options{}))
	for _, c := range []struct{ method, target, body string }{
		{"GET", "/v1/version", ""},
		{"POST", "/v1/parse?x=1", `{"text": "Cir3"}`},
		{"GET", "/nowhere", ""},
		{"OPTIONS", "/v1/move", ""},
	} {
		req := httptest.NewRequest(c.method, c.target, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{`^GET /v1/version 200 \d+ \S+s$`, `^POST /v1/parse\?x=1 200 \d+ \S+s$`, `^GET /nowhere 404 \d+ \S+s$`, `^OPTIONS /v1/move 204 0 \S+s$`}
	if len(lines) != len(want) {
		t.Fatalf("log:\n%s", out.String())
	}
	for i, re := range want {
		if !regexp.MustCompile(re).MatchString(lines[i]) {
			t.Errorf("line %q does not match %s", lines[i], re)
		}
	}
}

// TestCommand builds the command, runs it on a free loopback port, calls it and stops it with
// SIGTERM, as a developer's Ctrl-C or a process manager would.
func TestCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "worker")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() string {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the command ended")
			}
			return l
		case <-time.After(20 * time.Second):
			t.Fatal("no output from the command")
		}
		return ""
	}
	m := regexp.MustCompile(`aoekit API on http://(127\.0\.0\.1:\d+) `).FindStringSubmatch(next())
	if m == nil {
		t.Fatal("no listening address in the log")
	}
	res, err := http.Get("http://" + m[1] + "/v1/version")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("GET /v1/version: %d", res.StatusCode)
	}
	if l := next(); !regexp.MustCompile(`GET /v1/version 200 \d+ `).MatchString(l) {
		t.Errorf("access log line %q", l)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	var rest []string
	for l := range lines {
		rest = append(rest, l)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit after SIGTERM: %v", err)
	}
	if !strings.Contains(strings.Join(rest, "\n"), "stopped") {
		t.Errorf("no graceful stop in %q", rest)
	}
}
