#!/usr/bin/env bash
# GRPO with verl + vLLM (async agent loop) on EDGE-synthesized data, one 8-GPU node.
# Needs the `verl` extra in its own environment (docs/training.md, "verl"). Run from the repo root:
#   simulator edge synthesize --n 1000 --out synth-out
#   bash recipes/verl-qwen3-grpo.sh                 # MODEL=... NGPUS=... to change
# verl < 0.9 reads the reward function from top-level `custom_reward_function.*` instead of
# `reward.custom_reward_function.*`: rename the two keys below there. The reward path is
# `pkg://train.verl_adapter` (imported as a package module): verl loads a plain file path with
# spec_from_file_location, where the adapter's relative imports fail.
set -euo pipefail
MODEL=${MODEL:-Qwen/Qwen3-8B}
NGPUS=${NGPUS:-8}
DATA=${DATA:-synth-out}
OUT=${OUT:-verl-out}
MAX_PROMPT_LENGTH=${MAX_PROMPT_LENGTH:-6144}
# Writes the tool config, the rows and the agent-loop YAML, then loads the rows with verl's own
# dataset class and filter under the settings below (MODEL's tokenizer) and refuses when every
# row would be dropped. The prompt filter measures each row with its own platforms' tools
# (train.verl_adapter.KopaRLHFDataset, data.custom_cls below): the agent loop offers a row only
# those, while verl's stock filter renders every prompt with every tool of tools.yaml.
simulator train verl-config --data "$DATA" --out "$OUT/tools.yaml" --dataset "$OUT/train.parquet" \
  --agent-loop-config "$OUT/agent_loop.yaml" --max-observation-chars 20000 \
  --tokenizer "$MODEL" --max-prompt-length "$MAX_PROMPT_LENGTH"
python -m verl.trainer.main_ppo \
  algorithm.adv_estimator=grpo \
  algorithm.use_kl_in_reward=False \
  data.train_files="$OUT/train.parquet" \
  data.val_files="$OUT/train.parquet" \
  data.return_raw_chat=True \
  data.train_batch_size=64 \
  data.max_prompt_length="$MAX_PROMPT_LENGTH" \
  data.max_response_length=16384 \
  data.filter_overlong_prompts=True \
  data.custom_cls.path=pkg://train.verl_adapter \
  data.custom_cls.name=KopaRLHFDataset \
  +data.apply_chat_template_kwargs.enable_thinking=False \
  actor_rollout_ref.model.path="$MODEL" \
  actor_rollout_ref.model.use_remove_padding=True \
  actor_rollout_ref.model.enable_gradient_checkpointing=True \
  actor_rollout_ref.actor.optim.lr=1e-6 \
  actor_rollout_ref.actor.ppo_mini_batch_size=16 \
  actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \
  actor_rollout_ref.actor.use_dynamic_bsz=True \
  actor_rollout_ref.actor.ppo_max_token_len_per_gpu=24576 \
  actor_rollout_ref.actor.use_kl_loss=False \
  actor_rollout_ref.actor.fsdp_config.param_offload=False \
  actor_rollout_ref.rollout.name=vllm \
  actor_rollout_ref.rollout.mode=async \
  actor_rollout_ref.rollout.n=8 \
  actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
  actor_rollout_ref.rollout.gpu_memory_utilization=0.5 \
  actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2 \
  actor_rollout_ref.rollout.multi_turn.enable=True \
  actor_rollout_ref.rollout.multi_turn.format=hermes \
  actor_rollout_ref.rollout.multi_turn.tool_config_path="$OUT/tools.yaml" \
  actor_rollout_ref.rollout.multi_turn.max_assistant_turns=16 \
  actor_rollout_ref.rollout.multi_turn.max_parallel_calls=4 \
  actor_rollout_ref.rollout.multi_turn.max_tool_response_length=20000 \
  actor_rollout_ref.rollout.agent.agent_loop_config_path="$OUT/agent_loop.yaml" \
  reward.custom_reward_function.path=pkg://train.verl_adapter \
  reward.custom_reward_function.name=compute_score \
  trainer.n_gpus_per_node="$NGPUS" \
  trainer.nnodes=1 \
  trainer.total_epochs=2 \
  trainer.save_freq=25 \
  trainer.test_freq=-1 \
  trainer.val_before_train=False \
  trainer.logger='["console"]' \
  trainer.project_name=kopa-sim \
  trainer.experiment_name="grpo-$(basename "$MODEL")" \
  trainer.default_local_dir="$OUT/checkpoints" \
  "$@"
