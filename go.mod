module github.com/aoekit/aoekit

go 1.26

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/syumai/workers v0.33.0
)

tool github.com/syumai/workers/cmd/workers-assets-gen
