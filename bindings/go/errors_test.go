package samekey

import "testing"

// errors_gen.go's sentinels are the linked core's codes, one each, in order (a stale
// file, or a library of another version, fails here).
func TestSentinelsFollowTheCoreCodes(t *testing.T) {
	core := coreErrorCodes()
	same := len(core) == len(sentinels)
	for i := 0; same && i < len(core); i++ {
		same = sentinels[i].Code == core[i]
	}
	if !same {
		t.Fatalf("errors_gen.go does not match the linked core's codes %v: run cargo xtask generate go-errors", core)
	}
}
