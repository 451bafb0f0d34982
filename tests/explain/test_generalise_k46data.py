"""Readings added by helper k46data (2026-12-06) while probing public threads of data, models, config and user code
(chat templates, tokenizers, remote-code models, multimodal datasets, pickling) for failure classes explain did not
name. Each test input is a short excerpt in our own words around the exact emitted message; each class also has a near
miss (similar words, another failure).

- ARL-E4320: the chat template could not render the messages (jinja2 UndefinedError: 'X object' has no attribute).
- ARL-E4321: No module named 'transformers_modules' / 'datasets_modules' where a remote-code object is unpickled.
- ARL-E4322: a fast tokenizer asked to decode a negative id (OverflowError: out of range integral type conversion).
- ARL-E4323: a fast tokenizer given something that is not text (TextEncodeInput / TextInputSequence must be str).
- ARL-E4324: a multimodal row's <image> placeholders and images column differ in number (verl, LLaMA-Factory).
- ARL-E4325: safetensors refuses a non-contiguous tensor at save time.
- ARL-E4326: the chat template does not parse (jinja2 TemplateSyntaxError).
- ARL-E4327: vLLM got a multimodal request with no placeholder (text-only rows of a mixed dataset on a VL model).
- ARL-E4328: PEFT found no adapter_config.json where it was told to load an adapter.
- ARL-E4329: a dataset written by datasets >= 4 read by 3.x (Feature type 'List' not found).
- ARL-E4330: the dataset is empty when the sampler indexes it (Invalid key: N is out of bounds for size 0).
- ARL-E4331: the SentencePiece tokenizer.model could not be parsed (LFS pointer, truncated, wrong file).
- Widened: ARL-E4089 (antlr4 4.9 runtime's ord() TypeError on a >= 4.10 parser), ARL-E1688 (lambda pickling),
  ARL-E1644 (Mistral v0.1 templates: 'Only user and assistant roles are supported!').

Each case is a traceback tail: the frame that raised (file, line, function), and the message line.
"""

from __future__ import annotations

import functools

import pytest

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

SITE = "/usr/local/lib/python3.10/dist-packages"


def _tb(frame: str, message: str, prefix: str = "") -> str:
    """A traceback's last frame and its exception line; ``prefix`` is put before every line (a Ray worker's tag)."""
    lines = ["Traceback (most recent call last):", f"  File {frame}", message]
    return "".join(f"{prefix}{line}\n" for line in lines)


TEMPLATE = f'"{SITE}/transformers/tokenization_utils_base.py", line 1700, in apply_chat_template'
COMPILE = f'"{SITE}/transformers/utils/chat_template_utils.py", line 423, in _compile_jinja_template'
UNPICKLE = f'"{SITE}/ray/_private/serialization.py", line 215, in _deserialize_pickle5_data'
DECODE = f'"{SITE}/transformers/tokenization_utils_fast.py", line 668, in _decode'
ENCODE = f'"{SITE}/transformers/tokenization_utils_fast.py", line 528, in _batch_encode_plus'
BUILD = f'"{SITE}/verl/utils/dataset/rl_dataset.py", line 340, in _build_messages'
SAVE = f'"{SITE}/safetensors/torch.py", line 286, in save_file'
MM_META = f'"{SITE}/vllm/multimodal/utils.py", line 322, in merge_and_sort_multimodal_metadata'
PEFT = f'"{SITE}/peft/config.py", line 151, in _get_peft_type'
FEATURES = f'"{SITE}/datasets/features/features.py", line 1474, in generate_from_dict'
INDEX = f'"{SITE}/datasets/formatting/formatting.py", line 526, in _check_valid_index_key'
ANTLR = f'"{SITE}/antlr4/atn/ATNDeserializer.py", line 89, in adjust'
SPM = f'"{SITE}/sentencepiece/__init__.py", line 310, in LoadFromFile'
PICKLE = '"/usr/lib/python3.10/multiprocessing/reduction.py", line 60, in dump'
USER = '"app.py", line 3, in <module>'

NON_CONTIGUOUS = ("ValueError: You are trying to save a non contiguous tensor: `lm_head.weight` which is not allowed. It "
                  "either means you are trying to save tensors which are reference of each other in which case it's "
                  "recommended to save only the full tensors, and reslice at load time, or simply call `.contiguous()` "
                  "on your tensor to pack it before saving.")
AVAILABLE = "Available feature types: ['Value', 'ClassLabel', 'Translation', 'LargeList', 'Sequence', 'Array2D', 'Audio', 'Image']"

# (entry, pastes that must read as it, near misses that must not)
CASES = [
    ("ARL-E4320",
     [_tb(TEMPLATE, f"jinja2.exceptions.UndefinedError: {m}") for m in (
         "'list object' has no attribute 'startswith'", "'dict object' has no attribute 'role'",
         "'inspect_ai.model._chat_message.ChatMessageUser object' has no attribute 'get'", "dict object has no element 0")]
     + [_tb(TEMPLATE, "TypeError: Object of type Undefined is not JSON serializable")],
     # an undefined *name* (a helper the renderer did not pass) and Python's own AttributeError on a dict
     [_tb(USER, "jinja2.exceptions.UndefinedError: 'raise_exception' is undefined"),
      _tb(USER, "AttributeError: 'dict' object has no attribute 'role'"),
      _tb(USER, "TypeError: Object of type Tensor is not JSON serializable")]),
    ("ARL-E4321",
     [_tb(UNPICKLE, m, prefix="(WorkerDict pid=2211, ip=10.0.0.3) ") for m in (
         "ray.exceptions.RaySystemError: System error: No module named 'transformers_modules'",
         "ModuleNotFoundError: No module named 'transformers_modules.chatglm3-6b'",
         "ModuleNotFoundError: No module named 'datasets_modules'")],
     [_tb(USER, "ModuleNotFoundError: No module named 'transformers'")]),
    ("ARL-E4322",
     [_tb(DECODE, "OverflowError: out of range integral type conversion attempted")],
     [_tb(USER, "OverflowError: Python int too large to convert to C long")]),
    ("ARL-E4323",
     [_tb(ENCODE, "TypeError: TextEncodeInput must be Union[TextInputSequence, Tuple[InputSequence, InputSequence]]"),
      _tb(ENCODE, "TypeError: TextInputSequence must be str")],
     [_tb(USER, "TypeError: expected string or bytes-like object")]),
    ("ARL-E4324",
     [_tb(BUILD, m) for m in (
         "AssertionError: image_offset 1 >= len(images) 1", "AssertionError: image_offset 0 != len(images) 2",
         "AssertionError: video_offset 2 != len(videos) 3",
         "ValueError: The number of images does not match the number of <image> tokens in [{'role': 'user'}].",
         "ValueError: The number of images does not match the number of <image> tokens.")],
     # the later tokens-vs-features check inside the model (ARL-E504), and another "number of images" check
     [_tb(USER, "ValueError: Image features and image tokens do not match: tokens: 79752, features 80436"),
      _tb(USER, "ValueError: The number of images does not match the number of labels.")]),
    ("ARL-E4325",
     [_tb(SAVE, NON_CONTIGUOUS)],
     # tied weights sharing memory are another safetensors refusal (ARL-E532)
     [_tb(USER, "RuntimeError: Some tensors share memory, this will lead to duplicate memory on disk and potential "
                "differences when loading them again: [{'lm_head.weight', 'model.embed_tokens.weight'}].")]),
    ("ARL-E4326",
     [_tb(COMPILE, f"jinja2.exceptions.TemplateSyntaxError: {m}") for m in (
         "expected token 'end of print statement', got 'name'", "unexpected '}'",
         "unexpected end of template, expected 'end of for loop'.", "Encountered unknown tag 'generation'.")],
     [_tb(USER, "django.template.exceptions.TemplateSyntaxError: Invalid block tag on line 3: 'endblock'. Did you "
                "forget to register or load this tag?")]),
    ("ARL-E4327",
     [_tb(MM_META, "AssertionError: No modalities found in the mm_positions.", prefix="(WorkerDict pid=49002) ")],
     [_tb(USER, "RuntimeError: Expected there to be 1 prompt updates corresponding to 1 image items, but instead "
                "found 0 prompt updates!")]),
    ("ARL-E4328",
     [_tb(PEFT, f"ValueError: Can't find 'adapter_config.json' at '{where}'")
      for where in ("./llms/peft-chatglm2-6b", "tloen/alpaca-lora-7b", "/ckpt/global_step_100/actor")],
     [_tb(USER, "OSError: /models/qwen does not appear to have a file named config.json. Checkout "
                "'https://huggingface.co//models/qwen/tree/None' for available files.")]),
    ("ARL-E4329",
     [_tb(FEATURES, f"ValueError: Feature type 'List' not found. {AVAILABLE}")],
     [_tb(USER, "ValueError: Unknown split \"test\". Should be one of ['train'].")]),
    ("ARL-E4330",
     [_tb(INDEX, "IndexError: Invalid key: 47682 is out of bounds for size 0")],
     [_tb(INDEX, "IndexError: Invalid key: 5000 is out of bounds for size 4000")]),
    ("ARL-E4331",
     [_tb(SPM, "RuntimeError: Internal: src/sentencepiece_processor.cc(1101) "
               "[model_proto->ParseFromArray(serialized.data(), serialized.size())]"),
      _tb(SPM, "RuntimeError: Internal: a\\sentencepiece\\src\\sentencepiece_processor.cc(1102) "
               "[model_proto->ParseFromArray(serialized.data(), serialized.size())]")],
     # a missing model file is another failure (OSError / not a string from a None path)
     [_tb(SPM, "OSError: Not found: \"/models/llama/tokenizer.model\": No such file or directory Error #2")]),
    ("ARL-E4089",
     [_tb(ANTLR, "TypeError: ord() expected string of length 1, but int found")],
     [_tb(USER, "TypeError: ord() expected a character, but string of length 2 found")]),
    ("ARL-E1688",
     [_tb(PICKLE, f"_pickle.PicklingError: Can't pickle <function <lambda> at 0x7f253aa720d0>: attribute lookup "
                  f"<lambda> on {where} failed") for where in ("__main__", "data.dataset", "auxiliaries.finetune")],
     [_tb(USER, "TypeError: cannot pickle '_thread.lock' object")]),
    ("ARL-E1644",
     [_tb(COMPILE, "jinja2.exceptions.TemplateError: Only user and assistant roles are supported!")],
     [_tb(COMPILE, "jinja2.exceptions.TemplateError: This model only supports single tool-calls at once!")]),
]

READS = [(entry, text) for entry, positives, _ in CASES for text in positives]
MISSES = [(entry, text) for entry, _, misses in CASES for text in misses]


@pytest.mark.parametrize("entry,text", READS, ids=[f"{e}-{i}" for i, (e, _) in enumerate(READS)])
def test_paste_reads_as_entry(entry, text):
    assert _id(text) == entry, text


@pytest.mark.parametrize("entry,text", MISSES, ids=[f"{e}-miss-{i}" for i, (e, _) in enumerate(MISSES)])
def test_near_miss_is_not_entry(entry, text):
    assert _id(text) != entry, text


def test_tokens_features_mismatch_stays_e504():
    assert _id(_tb(USER, "ValueError: Image features and image tokens do not match: tokens: 79752, features 80436")) == "ARL-E504"
