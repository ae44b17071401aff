"""One model per ``resolution.kind`` (CHK-SUM, CHK-POOL, CHK-HIGH, CHK-AGAINST, CHK-SYM)."""
