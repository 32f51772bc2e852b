docker ps --no-trunc --format '{{.ID}} {{.Image}} {{.Status}} {{.Names}}' --filter name=triton
