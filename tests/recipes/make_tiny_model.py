"""Build a tiny Qwen2 model and tokenizer offline (runs in the verl venv): real files, nothing downloaded.

usage: python make_tiny_model.py OUT_DIR
"""

import sys

from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
TEXT = [
    "Natalia sold clips to her friends in April and then half as many in May.",
    "Weng earns 12 dollars an hour for babysitting. How much did she earn?",
    "Let's think step by step and output the final answer after ####.",
] * 50


def main(out: str) -> None:
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=["<unk>", "<|im_start|>", "<|im_end|>", "<|endoftext|>"])
    tok.train_from_iterator(TEXT, trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", eos_token="<|im_end|>", pad_token="<|endoftext|>")
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(out)
    config = Qwen2Config(
        vocab_size=len(fast), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048, torch_dtype="bfloat16",
    )
    Qwen2ForCausalLM(config).save_pretrained(out, safe_serialization=True)


if __name__ == "__main__":
    main(sys.argv[1])
