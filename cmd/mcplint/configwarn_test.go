package main

import (
	"testing"

	"github.com/mcplint/mcplint/config"
	"github.com/mcplint/mcplint/engine"
)

// config.LimitDefaults, against which a configuration file's limits are
// judged (config.Tightens), are the engine's defaults, key by key.
func TestLimitDefaults(t *testing.T) {
	cfg := &config.Config{Limits: map[string]config.Limit{}}
	for name, v := range config.LimitDefaults {
		cfg.Limits[name] = config.Limit{Value: v}
	}
	if len(cfg.Limits) != len(config.LimitKeys) {
		t.Fatalf("LimitDefaults has %d keys, LimitKeys %d", len(cfg.Limits), len(config.LimitKeys))
	}
	lim, err := buildLimits(cfg, nil)
	if err != nil || lim != engine.DefaultLimits {
		t.Errorf("the defaults as configured: %+v %v, engine.DefaultLimits %+v", lim, err, engine.DefaultLimits)
	}
}
