#!/usr/bin/env bash
# One-GPU check (H100/H200) of the training loop, sized to run in minutes on a lent device with
# the repository and wheels carried in and no hub downloads: the model's weights are given by path.
#   bash recipes/gpu-check.sh /path/to/Qwen3-0.6B            # GPU: train eval, GRPO steps with vLLM
#   bash recipes/gpu-check.sh --dry-run                       # CPU: the same steps with the tiny model
# Prints pass@1 and the three axes per model (base, trained), the GRPO steps' wall time and the
# reward log. OUT=... (default gpu-check-out), STEPS=... (default 3), TASKS=... (bench task ids).
set -euo pipefail
DRY=0
if [[ "${1:-}" == "--dry-run" ]]; then DRY=1; shift; fi
MODEL=${1:-}
OUT=${OUT:-gpu-check-out}
STEPS=${STEPS:-3}
TASKS=${TASKS:-molit-trade-max-0}
SIM=${SIM:-simulator}
PY=${PY:-python}
if [[ $DRY == 0 && -z "$MODEL" ]]; then
  echo "usage: bash recipes/gpu-check.sh MODEL_DIR   (or --dry-run on a CPU)" >&2; exit 2
fi
if [[ $DRY == 0 && ! -d "$MODEL" ]]; then
  echo "error: MODEL_DIR $MODEL is not a directory: give the weights by path (no hub downloads here)" >&2; exit 2
fi
rm -rf "$OUT"; mkdir -p "$OUT/data"
# Training rows: the synthesized rows shipped for learn-check (kopa@v0005; no synthesis run needed).
"$PY" -c "
import json, sys
from train.learn_check import load_learn_check_data
d = load_learn_check_data()
open(sys.argv[1], 'w', encoding='utf-8').write(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in d['trl']))
print(d['version'])" "$OUT/data/trl.jsonl" > "$OUT/version"
VERSION=$(cat "$OUT/version")
TASK_ARGS=(); for t in $TASKS; do TASK_ARGS+=(--task "$t"); done
start=$(date +%s)
if [[ $DRY == 1 ]]; then
  "$SIM" train grpo --model tiny --cpu --no-vllm --data "$OUT/data" --version "$VERSION" --output-dir "$OUT/grpo" \
    --max-steps 1 --num-generations 2 --batch-size 2 --max-completion-length 64 --max-observation-chars 300 \
    > "$OUT/grpo.json"
  EVAL=(--backend builtin --seeds 1 --k 1 --max-tokens 8 --max-turns 2 --workers 2)
else
  "$SIM" train grpo --config recipes/qwen3-grpo.yaml --model "$MODEL" --data "$OUT/data" --version "$VERSION" \
    --output-dir "$OUT/grpo" --max-steps "$STEPS" --save-steps 1000 > "$OUT/grpo.json"
  EVAL=(--seeds 4 --k 2 --max-tokens 1024 --max-turns 12 --workers 16)
fi
grpo_s=$(( $(date +%s) - start ))
# Base = the run's starting model (from kopa_run.json: MODEL, or the tiny run's saved weights).
"$SIM" train eval "$OUT/grpo" --out "$OUT/eval" --tools platform "${TASK_ARGS[@]}" "${EVAL[@]}"
"$PY" - "$OUT" "$grpo_s" <<'EOF'
import json, sys
from pathlib import Path
out, grpo_s = Path(sys.argv[1]), int(sys.argv[2])
rep = json.loads((out / "eval" / "eval_report.json").read_text(encoding="utf-8"))
print(f"cassettes {rep['meta']['version']}, {rep['meta']['tasks']} task(s) x {rep['meta']['seeds']} samples, "
      f"backend {rep['meta']['backend']}")
for m in rep["models"]:
    print(f"{m['model']}: pass@1 {m['pass@1']}  RESPONSE {m['response']}  ACTION {m['action']}  "
          f"ENVIRONMENT {m['environment']}  calls/episode {m['calls_per_episode']}")
text = (out / "grpo.json").read_text(encoding="utf-8")  # the trainer's own log lines come first
log = json.loads(text[text.rindex('{\n "output_dir"'):])
steps = [h for h in log["log"] if "reward" in h]
print(f"GRPO: {log['steps']} step(s), {grpo_s} s wall with start-up; rewards "
      + ", ".join(f"{h['reward']:.3f}" for h in steps))
EOF
