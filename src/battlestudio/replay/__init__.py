"""Game log and replay: battle events, keyframes, state_at, Timeline."""
