//go:build !js

package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestDefaultMaxEvaluations(t *testing.T) {
	if got, want := defaultMaxEvaluations(), 2*runtime.GOMAXPROCS(0); got != want || got < 2 {
		t.Errorf("defaultMaxEvaluations() = %d; want 2 × GOMAXPROCS = %d", got, want)
	}
}

// TestCommandMaxEvaluations: the flag is validated, and the log says the cap in force.
func TestCommandMaxEvaluations(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "worker")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "-addr", "127.0.0.1:0", "-max-evaluations", "-1").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "-max-evaluations -1: want 0 (no cap) or more") {
		t.Errorf("-max-evaluations -1: %v %s", err, out)
	}
	out, err = exec.Command(bin, "-h").CombinedOutput()
	if !strings.Contains(string(out), "-max-evaluations") || !strings.Contains(string(out), "503") {
		t.Errorf("-h does not document -max-evaluations: %v %s", err, out)
	}
}
