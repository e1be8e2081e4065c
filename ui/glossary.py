"""The glossary: every BPE term in English, 简体中文 and 繁體中文 (Taiwan usage), with a one-line definition.

One list, used three ways: the glossary page (:func:`render`), the translators' reference when
they fill the catalogs, and ``tests/test_glossary.py``, which checks that every catalog entry whose
English text uses a term uses the glossary's Chinese term for it.

Choices (after the Chinese NLP literature): *token* is 词元/詞元 (not 令牌, which is an
authentication token, nor 标记); *rank* is 排名 (tiktoken's word, kept in both scripts); *tie* is
并列/並列 and the *tie-break rule* 同分取舍规则/同分取捨規則 ("the rule that chooses among equal counts": 并列规则 reads as grammatical coordination); Taiwan usage for
繁體: 位元組 (byte), 字元 (character), 詞彙表 (vocabulary), 正規表示式, 簡報模式, 未登錄詞.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

import streamlit as st

from bpe_core.i18n import LANGUAGE_NAMES, LANGUAGES
from bpe_core.pretokenize_words import JIEBA
from ui.glossary_definitions import DEFINITIONS
from ui.i18n import N_, _
from ui.settings import PRE_LABELS


@dataclass(frozen=True)
class Term:
    """One glossary term.

    Attributes:
        en, zh_hans, zh_hant: the term in each language.
        pattern: regular expression (case-insensitive) finding the English term, with its plural
            and verb forms, in a catalog message.
        need: for the consistency test, the Chinese strings of which a translation of such a
            message must contain at least one, as ``(zh-Hans alternatives, zh-Hant alternatives)``;
            default: the term itself (``pair`` only needs 对, *Chinese character* may be 汉字).
    """

    en: str
    zh_hans: str
    zh_hant: str
    pattern: str
    need: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def name(self, lang: str) -> str:
        """The term in ``lang`` (one of :data:`bpe_core.i18n.LANGUAGES`)."""
        return {"en": self.en, "zh-Hans": self.zh_hans, "zh-Hant": self.zh_hant}[lang]

    def definition(self, lang: str) -> str:
        """The one-line definition in ``lang``."""
        return DEFINITIONS[self.en][LANGUAGES.index(lang)]

    def required(self, lang: str) -> tuple[str, ...]:
        """What a Chinese translation of a message using the term must contain (one of these)."""
        if self.need is None:
            return (self.name(lang),)
        return self.need[0] if lang == "zh-Hans" else self.need[1]

    @cached_property
    def regex(self) -> re.Pattern:
        """:attr:`pattern` compiled, case-insensitive."""
        return re.compile(self.pattern, re.IGNORECASE)


TERMS: tuple[Term, ...] = (
    Term("merge", "合并", "合併", r"\bmerg(?:e|es|ed|ing)\b"),
    Term("pair", "符号对", "符號對", r"\bpairs?\b", need=(("对",), ("對",))),
    Term("byte pair", "字节对", "位元組對", r"\bbyte[- ]pairs?\b"),
    Term(
        "Byte-Pair Encoding (BPE)",
        "字节对编码（BPE）",
        "位元組對編碼（BPE）",
        r"\bbyte[- ]pair encoding\b",
        need=(("字节对编码",), ("位元組對編碼",)),
    ),
    Term("byte", "字节", "位元組", r"\bbytes?\b"),
    Term("rank", "排名", "排名", r"\branks?\b"),
    Term("vocabulary", "词表", "詞彙表", r"\bvocabular(?:y|ies)\b"),
    Term("vocabulary size", "词表大小", "詞彙表大小", r"\bvocabulary sizes?\b"),
    Term("subword", "子词", "子詞", r"\bsub-?words?\b(?!-nmt)"),
    Term("token", "词元", "詞元", r"(?<!pre-)(?<!pre)\btokens?\b"),
    Term("token id", "词元 ID", "詞元 ID", r"\btoken ids?\b"),
    # Not a pre-tokenizer, nor a name in code (tokenizer.json, `tokenizers`, Hugging Face tokenizers' trainer).
    Term("tokenizer", "分词器", "分詞器", r"(?<![-/`.\w])(?<!Face )tokeni[sz]ers?\b(?![`.(])"),
    Term("pre-tokenization", "预分词", "預分詞", r"\bpre-?tokeni[sz]ation\b"),
    Term("pre-tokenizer", "预分词器", "預分詞器", r"\bpre-?tokeni[sz]ers?\b"),
    Term("pre-token", "预分词片段", "預分詞片段", r"\bpre-?tokens?\b"),
    Term("word type", "词型", "詞型", r"\bword types?\b"),
    Term("base alphabet", "初始符号集", "初始符號集", r"\b(?:base|starting) alphabets?\b"),
    Term(
        "end-of-word marker",
        "词尾标记",
        "詞尾標記",
        r"\bend-of-word (?:marker|symbol|suffix)(?:es|s)?\b",
        need=(("词尾",), ("詞尾",)),
    ),
    Term(
        "byte-level BPE (BBPE)",
        "字节级 BPE（BBPE）",
        "位元組級 BPE（BBPE）",
        r"\bbyte-level\b|\bBBPE\b",
        need=(("字节级",), ("位元組級",)),
    ),
    Term(
        "OOV (out-of-vocabulary)",
        "未登录词（OOV）",
        "未登錄詞（OOV）",
        r"\bOOV\b|\bout-of-vocabulary\b",
        need=(("未登录词",), ("未登錄詞",)),
    ),
    Term("byte fallback", "字节回退", "位元組回退", r"\bbyte fallback\b"),
    Term("tie", "并列", "並列", r"\bti(?:e|es|ed)\b", need=(("并列", "同分"), ("並列", "同分"))),
    Term("tie-break rule", "同分取舍规则", "同分取捨規則", r"\btie-break(?:ing)?(?: rules?)?\b"),
    Term("first-seen", "先出现者优先", "先出現者優先", r"\bfirst-seen\b"),
    Term("lexical", "字典序", "字典序", r"\blexical\b"),
    Term("frequency", "频次", "頻次", r"\bfrequenc(?:y|ies)\b"),
    Term("minimum frequency", "最小频次", "最小頻次", r"\bmin(?:imum)? frequency\b"),
    Term("corpus", "语料", "語料", r"\bcorp(?:us|ora|uses)\b"),
    Term("character", "字符", "字元", r"\bcharacters?\b", need=(("字符", "汉字"), ("字元", "漢字"))),
    Term("code point", "码位", "碼位", r"\bcode points?\b"),
    Term("grapheme", "字素", "字素", r"\bgraphemes?\b"),
    Term("grapheme cluster", "字素簇", "字素簇", r"\bgrapheme clusters?\b"),
    Term(
        "ZWJ (zero width joiner)",
        "零宽连接符（ZWJ）",
        "零寬連接符（ZWJ）",
        r"\bZWJ\b|\bzero[- ]width joiners?\b",
        need=(("零宽连接符", "ZWJ"), ("零寬連接符", "ZWJ")),
    ),
    Term(
        "regional indicator",
        "区域指示符",
        "區域指示符",
        r"\bregional indicators?\b",
        need=(("区域指示",), ("區域指示",)),
    ),
    Term("UTF-8", "UTF-8", "UTF-8", r"\bUTF-8\b"),
    Term("step", "步骤", "步驟", r"\bsteps?\b", need=(("步",), ("步",))),
    Term("merge tree", "合并树", "合併樹", r"\bmerge trees?\b"),
    Term("intermediate token", "中间词元", "中間詞元", r"\bintermediate tokens?\b"),
    Term(
        "IoS (intersection over self)",
        "自身交并比（IoS）",
        "自身交併比（IoS）",
        r"\bIoS\b|\bintersection over self\b",
        need=(("自身交并比", "IoS"), ("自身交併比", "IoS")),
    ),
    Term("threshold", "阈值", "閾值", r"\bthresholds?\b"),
    Term(
        "under-trained token (glitch token)",
        "训练不足的词元（故障词元）",
        "訓練不足的詞元（故障詞元）",
        r"\bunder-trained tokens?\b|\bglitch tokens?\b",
        need=(("训练不足的词元", "故障词元"), ("訓練不足的詞元", "故障詞元")),
    ),
    Term("encode", "编码", "編碼", r"\bencod(?:e|es|ed|ing)\b"),
    Term("decode", "解码", "解碼", r"\bdecod(?:e|es|ed|ing)\b"),
    Term("whitespace", "空白", "空白", r"\bwhitespace\b"),
    Term("regular expression", "正则表达式", "正規表示式", r"\bregular expressions?\b"),
    Term("dropout", "dropout", "dropout", r"\bdropout\b"),
    Term("chip", "色块", "色塊", r"\bchips?\b"),
    Term("presentation mode", "演示模式", "簡報模式", r"\bpresentation mode\b"),
    Term("quiz", "测验", "測驗", r"\bquiz(?:zes)?\b"),
    Term("WordPiece", "WordPiece", "WordPiece", r"\bWordPiece\b"),
    Term("Unigram", "Unigram", "Unigram", r"\bUnigram\b"),
    Term("Viterbi algorithm", "维特比算法", "維特比演算法", r"\bViterbi\b", need=(("维特比",), ("維特比",))),
    Term(
        "likelihood / loss",
        "似然 / 损失",
        "似然 / 損失",
        r"\blikelihood\b|\bloss\b",
        need=(("似然", "损失"), ("似然", "損失")),
    ),
    Term("continuation prefix", "续接前缀", "續接前綴", r"\bcontinuation prefix(?:es)?\b"),
    Term(
        "superword token",
        "超词词元",
        "超詞詞元",
        r"\bsuperwords?(?: tokens?)?\b",
        need=(("超词",), ("超詞",)),
    ),
    Term("transition point", "转换点", "轉換點", r"\btransition points?\b"),
)


# Column headers (translated where shown).
_TERM = N_("Term")
_DEFINITION = N_("Definition")


def rows(lang: str) -> list[dict[str, str]]:
    """The glossary as table rows for interface language ``lang``: the term in ``lang`` first, then
    in the two other languages (columns named by each language's own name), then the definition."""
    others = [other for other in LANGUAGES if other != lang]
    term_col, def_col = _(_TERM), _(_DEFINITION)
    table = []
    for term in TERMS:
        row = {term_col: term.name(lang)}
        row.update({LANGUAGE_NAMES[other]: term.name(other) for other in others})
        row[def_col] = term.definition(lang)
        table.append(row)
    return table


def render(lang: str) -> None:
    """Draw the glossary table (terms and definitions are plain text: Streamlit escapes them)."""
    st.table(rows(lang), hide_index=True)


#: The heading of :func:`segmentation_note` (translated where shown).
SEGMENTATION_HEADING = N_("Subword tokenization is not Chinese word segmentation")


def segmentation_note() -> None:
    """A short section for students who know Chinese word segmentation (分词 / 斷詞: jieba, CKIP) and take a BPE
    tokenizer, or its pre-tokenizer, for one."""
    st.subheader(_(SEGMENTATION_HEADING), anchor="segmentation")
    st.markdown(
        _(
            "Chinese NLP has long cut text into words: word segmentation, done by tools such as jieba or CKIP, "
            "which follow a dictionary or a trained model of what a word is (我/喜欢/自然语言/处理). A BPE tokenizer "
            "does something else: it learns from counts alone which pieces recur, and its tokens need not be "
            "words: a token can be some of a character's bytes, one character, or several words run together. "
            "Nor is it pre-tokenization: pre-tokenization only cuts text into chunks before BPE runs, at spaces or "
            "with a regular expression, and GPT-2's pattern keeps a run of Chinese characters in one chunk. A word "
            "segmenter could serve as a pre-tokenizer for Chinese, but then no merge could cross the word "
            "boundaries it drew."
        )
    )
    st.markdown(
        _(
            "This app has one: the pre-tokenizer “{label}” in the sidebar cuts Chinese into words with jieba "
            "(繁體 through OpenCC's conversion to 简体, the cuts put back on the original characters), so you can "
            "train BPE on words and compare it with no pre-tokenization."
        ).format(label=_(PRE_LABELS[JIEBA]))
    )
