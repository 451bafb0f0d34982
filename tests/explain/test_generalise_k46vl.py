"""Readings added by helper k46vl (2026-12-06) while probing public threads of multimodal (vision-language) training
and inference for failure classes explain did not name. Each test input is a short excerpt in our own words around
the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E4400: qwen-vl-utils smart_nframes: the video frame count is outside [2, total_frames].
- ARL-E4401: the Qwen-VL / GLM-4V smart_resize refuses a side below the factor or an aspect ratio above 200.
- ARL-E4402: Pillow cannot decode an image (cannot identify image file / image file is truncated).
- ARL-E4403: Pillow's DecompressionBombError on a huge image.
- ARL-E4404: the processor or qwen-vl-utils got something that is not an image it can open.
- ARL-E4324 (k46data wrote the same class at the same time; k46vl's ARL-E4405 was folded into it at the merge): LLaMA-Factory: images do not match the <image> placeholders of a sample.
- ARL-E4406: LLaMA-Factory: media given to a template without that modality.
- ARL-E4407: LLaMA-Factory: Processor / Image processor was not found.
- ARL-E504 (widened): transformers' processor-side image token count mismatch after truncation.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# ARL-E4400 ---------------------------------------------------------------------------------------------------------

def test_video_frames_out_of_interval_is_e4400():
    for line in ("ValueError: nframes should in interval [2, 31], but got 32.",
                 "ValueError: nframes should be in interval [2, 9], but got 16."):
        text = ("qwen-vl-utils using decord to read video.\n"
                "  File \"/opt/venv/lib/python3.10/site-packages/qwen_vl_utils/vision_process.py\", line 180, in smart_nframes\n"
                f"{line}\n")
        assert _id(text) == "ARL-E4400", line


def test_smart_nframes_warning_then_other_error_is_not_e4400():
    text = ("qwen_vl_utils.vision_process - WARNING - smart_nframes: nframes[64.0] > total_frames[40]\n"
            "RuntimeError: CUDA error: an illegal memory access was encountered\n")
    assert _id(text) != "ARL-E4400"


# ARL-E4401 ---------------------------------------------------------------------------------------------------------

def test_image_below_factor_is_e4401():
    for line in ("ValueError: height:16 and width:640 must be larger than factor:28",
                 "ValueError: height:23 or width:514 must be larger than factor:28",
                 "ValueError: absolute aspect ratio must be smaller than 200, got 227.5"):
        text = ("  File \"/usr/lib/python3.10/site-packages/transformers/models/qwen2_vl/image_processing_qwen2_vl.py\", "
                "line 69, in smart_resize\n" + line + "\n")
        assert _id(text) == "ARL-E4401", line


def test_pillow_zero_size_resize_is_not_e4401():
    # the qwen-vl-utils regression that floors a side to 0 fails inside Pillow with other words
    text = ("  File \"/usr/lib/python3.10/site-packages/PIL/Image.py\", line 2082, in resize\n"
            "ValueError: height and width must be > 0\n")
    assert _id(text) != "ARL-E4401"


# ARL-E4402 ---------------------------------------------------------------------------------------------------------

def test_undecodable_image_is_e4402():
    for line in ("PIL.UnidentifiedImageError: cannot identify image file '/data/mm/images/000123.jpg'",
                 "PIL.UnidentifiedImageError: cannot identify image file <_io.BytesIO object at 0x7ff1f05b62c0>",
                 "OSError: image file is truncated (15 bytes not processed)",
                 "OSError: image file is truncated"):
        text = ("Running tokenizer on dataset (num_proc=16):  41%|████      | 4100/10000\n" + line + "\n")
        assert _id(text) == "ARL-E4402", line


def test_missing_image_file_is_not_e4402():
    text = ("  File \"/usr/lib/python3.10/site-packages/PIL/Image.py\", line 3431, in open\n"
            "FileNotFoundError: [Errno 2] No such file or directory: '/data/mm/images/000123.jpg'\n")
    assert _id(text) != "ARL-E4402"


# ARL-E4403 ---------------------------------------------------------------------------------------------------------

def test_decompression_bomb_error_is_e4403():
    text = ("PIL.Image.DecompressionBombError: Image size (445833922 pixels) exceeds limit of 178956970 pixels, "
            "could be decompression bomb DOS attack.\n")
    assert _id(text) == "ARL-E4403"


def test_decompression_bomb_warning_is_not_e4403():
    text = ("/opt/venv/lib/python3.10/site-packages/PIL/Image.py:3186: DecompressionBombWarning: Image size (96487340 "
            "pixels) exceeds limit of 89478485 pixels, could be decompression bomb DOS attack.\n"
            "  warnings.warn(\n"
            "step:12 - actor/pg_loss:0.013 - critic/score/mean:0.41\n")
    assert _id(text) != "ARL-E4403"


# ARL-E4404 ---------------------------------------------------------------------------------------------------------

def test_not_an_image_is_e4404():
    for line in ("ValueError: Invalid image type. Must be of type PIL.Image.Image, numpy.ndarray, torch.Tensor, "
                 "tf.Tensor or jax.ndarray.",
                 "ValueError: Invalid image type. Expected either PIL.Image.Image, numpy.ndarray, torch.Tensor, "
                 "tf.Tensor or jax.ndarray, but got <class 'dict'>.",
                 "ValueError: Unrecognized image input, support local path, http url, base64 and PIL.Image, got None"):
        assert _id(line + "\n") == "ARL-E4404", line


def test_unrecognized_image_processor_is_not_e4404():
    text = ("ValueError: Unrecognized image processor in /models/Qwen2.5-VL-7B-Instruct. Should have a "
            "`image_processor_type` key in its preprocessor_config.json of config.json, or one of the following "
            "`model_type` keys in its config.json: align, aria, beit\n")
    assert _id(text) != "ARL-E4404"


# ARL-E4324 (was ARL-E4405) ---------------------------------------------------------------------------------------------------------

def test_llamafactory_placeholder_count_is_e4405():
    for line in ("ValueError: The number of images does not match the number of <image> tokens in "
                 "[{'content': 'Describe it.', 'role': 'user'}, {'content': 'A cat.', 'role': 'assistant'}].",
                 "ValueError: The number of videos does not match the number of <video> tokens."):
        text = ("Running tokenizer on dataset (num_proc=8):   0%|          | 0/5000\n" + line + "\n")
        assert _id(text) == "ARL-E4324", line


def test_transformers_special_image_tokens_is_not_e4405():
    text = ("ValueError: Number of images does not match number of special image tokens in the input text. Got 0 "
            "image tokens in the text but 256 tokens from image embeddings.\n")
    assert _id(text) != "ARL-E4324"


# ARL-E4406 ---------------------------------------------------------------------------------------------------------

def test_llamafactory_template_without_modality_is_e4406():
    for mod in ("image", "video"):
        text = (f"ValueError: This model does not support {mod} input. Please check whether the correct `template` "
                "is used.\n")
        assert _id(text) == "ARL-E4406", mod


def test_llamafactory_unknown_template_is_not_e4406():
    text = "ValueError: Template qwen2_vl_custom does not exist.\n"
    assert _id(text) != "ARL-E4406"


# ARL-E4407 ---------------------------------------------------------------------------------------------------------

def test_llamafactory_processor_not_found_is_e4407():
    for line in ("ValueError: Processor was not found, please check and update your model file.",
                 "ValueError: Processor was not found, please check and update your processor config.",
                 "ValueError: Image processor was not found, please check and update your model file."):
        assert _id(line + "\n") == "ARL-E4407", line


def test_llamafactory_failed_to_load_tokenizer_is_not_e4407():
    text = ("  File \"/opt/LLaMA-Factory/src/llamafactory/model/loader.py\", line 97, in load_tokenizer\n"
            "OSError: Failed to load tokenizer.\n")
    assert _id(text) != "ARL-E4407"


# ARL-E504 (widened) ------------------------------------------------------------------------------------------------

def test_processor_side_token_count_mismatch_is_e504():
    text = ("ValueError: Mismatch in `image` token count between text and `input_ids`. Got ids=[4091] and "
            "text=[5120]. Likely due to `truncation='max_length'`. Please disable truncation or increase "
            "`max_length`.\n")
    assert _id(text) == "ARL-E504"


def test_tokenizer_length_warning_is_not_e504():
    text = ("Token indices sequence length is longer than the specified maximum sequence length for this model "
            "(40210 > 32768). Running this sequence through the model will result in indexing errors\n"
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    assert _id(text) != "ARL-E504"
