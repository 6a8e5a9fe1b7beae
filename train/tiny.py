"""A tiny randomly initialised chat model and a locally trained tokenizer (no hub access).

For smoke runs and CI: a 2-layer Qwen3 built from a config and a byte-level BPE tokenizer
trained on the given texts, with TRL's shipped Qwen3 chat template (so TRL's response
parser recognises it and tool calls use ``<tool_call>`` JSON blocks). Needs the ``train``
extra.
"""

from __future__ import annotations

from typing import Any, Iterable

__all__ = ["SPECIAL_TOKENS", "tiny_model_and_tokenizer"]

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>",
                  "<tool_response>", "</tool_response>", "<think>", "</think>"]


def tiny_model_and_tokenizer(texts: Iterable[str], *, hidden: int = 32, layers: int = 2,
                             vocab_size: int = 2000, seed: int = 0) -> tuple[Any, Any]:
    """``(model, tokenizer)``: Qwen3 with ``hidden`` width and ``layers`` layers, random weights
    (seeded), and a BPE tokenizer trained on ``texts``."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM
    from trl.chat_template_utils import qwen3_chat_template

    bpe = Tokenizer(models.BPE(unk_token=None))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    bpe.train_from_iterator(list(texts), trainer=trainer)
    tok = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                  padding_side="left")
    tok.chat_template = qwen3_chat_template
    torch.manual_seed(seed)
    cfg = Qwen3Config(vocab_size=len(tok), hidden_size=hidden, intermediate_size=hidden * 2,
                      num_hidden_layers=layers, num_attention_heads=4, num_key_value_heads=2,
                      head_dim=hidden // 4, max_position_embeddings=32768,
                      eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id,
                      bos_token_id=None, tie_word_embeddings=True)
    model = Qwen3ForCausalLM(cfg)
    model.generation_config.eos_token_id = tok.eos_token_id
    model.generation_config.pad_token_id = tok.pad_token_id
    return model, tok
