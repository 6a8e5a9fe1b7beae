"""A tiny randomly initialised chat model and a locally trained tokenizer (no hub access).

For smoke runs and CI: a 2-layer Qwen3 built from a config and a byte-level BPE tokenizer
trained on the given texts, with TRL's shipped Qwen3 chat template (so TRL's response
parser recognises it and tool calls use ``<tool_call>`` JSON blocks). Needs the ``train``
extra.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from .errors import TrainError

__all__ = ["SPECIAL_TOKENS", "Script", "script_generation", "tiny_model", "tiny_model_and_tokenizer",
           "tiny_tokenizer"]

#: A generation script: the decoded prompt of one row of a ``generate`` batch (special
#: tokens kept) → the exact text that row must generate (EOS is appended), or None to let
#: the model sample freely. Called once per row per ``generate`` call, rows in batch order.
Script = Callable[[str], "str | None"]

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>",
                  "<tool_response>", "</tool_response>", "<think>", "</think>"]


def tiny_tokenizer(texts: Iterable[str], *, vocab_size: int = 2000, merges: str = "words") -> Any:
    """A byte-level BPE tokenizer trained on ``texts``, with TRL's Qwen3 chat template.

    ``merges="words"`` (GPT-2's rule) lets a token span at most one word; ``merges="lines"``
    lets it span anything but a newline, so text seen often in ``texts`` (a tool schema, a
    recorded tool result) becomes a few tokens: a prompt with seven tool schemas is ~230
    tokens instead of ~3,500, which is what makes ``simulator train learn-check`` fit in
    minutes on a CPU. Text never seen still encodes, byte by byte at worst.
    """
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast
    from trl.chat_template_utils import qwen3_chat_template

    if merges not in ("words", "lines"):
        raise TrainError(f"merges={merges!r} unknown; choose 'words' or 'lines'")
    bpe = Tokenizer(models.BPE(unk_token=None))
    if merges == "words":
        bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    else:  # newlines stay their own pieces, so a chat template's turn boundaries never merge
        bpe.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex("\n"), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    bpe.train_from_iterator(list(texts), trainer=trainer)
    tok = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                  padding_side="left")
    tok.chat_template = qwen3_chat_template
    return tok


def tiny_model(tok: Any, *, hidden: int = 32, layers: int = 2, seed: int = 0) -> Any:
    """A Qwen3 of ``hidden`` width and ``layers`` layers for ``tok``'s vocabulary, random
    weights (seeded), tied embeddings."""
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    torch.manual_seed(seed)
    cfg = Qwen3Config(vocab_size=len(tok), hidden_size=hidden, intermediate_size=hidden * 2,
                      num_hidden_layers=layers, num_attention_heads=4, num_key_value_heads=2,
                      head_dim=hidden // 4, max_position_embeddings=32768,
                      eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id,
                      bos_token_id=None, tie_word_embeddings=True)
    model = Qwen3ForCausalLM(cfg)
    model.generation_config.eos_token_id = tok.eos_token_id
    model.generation_config.pad_token_id = tok.pad_token_id
    return model


def tiny_model_and_tokenizer(texts: Iterable[str], *, hidden: int = 32, layers: int = 2,
                             vocab_size: int = 2000, seed: int = 0, merges: str = "words") -> tuple[Any, Any]:
    """``(model, tokenizer)``: :func:`tiny_model` (random weights, seeded) on a
    :func:`tiny_tokenizer` trained on ``texts``."""
    tok = tiny_tokenizer(texts, vocab_size=vocab_size, merges=merges)
    return tiny_model(tok, hidden=hidden, layers=layers, seed=seed), tok


def script_generation(model: Any, tokenizer: Any, script: Script) -> Any:
    """Constrain ``model.generate`` (on this instance) to emit scripted text where ``script`` says.

    Constrained decoding, not a fake model: every token still comes out of the model's
    own ``generate`` (its forward pass, sampling and stopping); a logits processor masks
    every logit but the scripted token's at each step for the rows that have a script, so
    a random tiny model emits, e.g., a well-formed ``<tool_call>`` block that a trainer
    parses and executes as it would a trained model's. Rows without a script generate
    freely. Trainers that compute log-probabilities in their own forward pass (TRL's
    GRPOTrainer without vLLM) train on these tokens as on any sampled ones.

    Returns ``model`` (its ``generate`` wrapped; other methods untouched).
    """
    import torch
    from transformers import LogitsProcessor, LogitsProcessorList

    class _Forced(LogitsProcessor):  # type: ignore[misc]
        def __init__(self, plans: list[list[int]], start: int) -> None:
            self.plans, self.start = plans, start

        def __call__(self, input_ids: Any, scores: Any) -> Any:
            k = input_ids.shape[1] - self.start
            for i, plan in enumerate(self.plans):
                if plan and k < len(plan):
                    keep = scores[i, plan[k]].clone()
                    scores[i] = -torch.inf
                    scores[i, plan[k]] = torch.nan_to_num(keep, neginf=0.0)
            return scores

    original = model.generate

    def generate(*args: Any, **kwargs: Any) -> Any:
        ids = kwargs.get("input_ids", args[0] if args else None)
        if ids is None:
            raise TrainError("script_generation needs input_ids (token ids of the prompts)")
        plans = []
        for text in tokenizer.batch_decode(ids, skip_special_tokens=False):
            out = script(text)
            plans.append([] if out is None else
                         list(tokenizer.encode(out, add_special_tokens=False)) + [tokenizer.eos_token_id])
        procs = LogitsProcessorList(kwargs.pop("logits_processor", None) or [])
        procs.append(_Forced(plans, int(ids.shape[1])))
        return original(*args, logits_processor=procs, **kwargs)

    model.generate = generate
    return model
