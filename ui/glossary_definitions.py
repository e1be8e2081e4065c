"""The glossary's one-line definitions in plain words, in English, 简体中文 and 繁體中文 (Taiwan usage),
by English term (:data:`ui.glossary.TERMS`; ``tests/test_glossary.py`` checks both lists hold the same terms
and that the Chinese definitions use the glossary's Chinese terms)."""

from __future__ import annotations

#: English term -> (English, 简体, 繁體) one-line definition in plain words.
DEFINITIONS: dict[str, tuple[str, str, str]] = {
    "merge": (
        "Joining one adjacent pair of symbols into a single new symbol, everywhere it occurs.",
        "把一对相邻符号在所有出现的位置都合成一个新符号。",
        "把一對相鄰符號在所有出現的位置都合成一個新符號。",
    ),
    "pair": (
        "Two symbols that stand next to each other inside a word; BPE counts every pair.",
        "词内紧挨着的两个符号；BPE 统计每一个这样的对。",
        "詞內緊挨著的兩個符號；BPE 統計每一個這樣的對。",
    ),
    "byte pair": (
        "A pair of adjacent bytes: the unit Gage's compression scheme replaced, which gave BPE its name.",
        "一对相邻的字节：Gage 的压缩方法替换的单位，BPE（字节对编码）也因此得名。",
        "一對相鄰的位元組：Gage 的壓縮方法替換的單位，BPE（位元組對編碼）也因此得名。",
    ),
    "Byte-Pair Encoding (BPE)": (
        "Learn merges of the most frequent pair, again and again, then encode text by replaying them.",
        "反复合并频次最高的符号对来学习合并规则，再按顺序重放这些规则来编码文本。",
        "反覆合併頻次最高的符號對來學習合併規則，再按順序重播這些規則來編碼文字。",
    ),
    "byte": (
        "Eight bits, a number from 0 to 255. UTF-8 writes each code point as one to four bytes, so a character a"
        " reader sees as one can take more: ❤️ (two code points) is 6 bytes, 👨‍👩‍👧 (five) is 18.",
        "八个比特，即 0 到 255 之间的一个数。UTF-8 用一到四个字节表示一个码位，所以读者眼中的一个字符可能占更多字节："
        "❤️（两个码位）占 6 个字节，👨‍👩‍👧（五个码位）占 18 个。",
        "八個位元，即 0 到 255 之間的一個數。UTF-8 用一到四個位元組表示一個碼位，所以讀者眼中的一個字元可能佔更多位元組："
        "❤️（兩個碼位）佔 6 個位元組，👨‍👩‍👧（五個碼位）佔 18 個。",
    ),
    "rank": (
        "A token's place in a rank file (tiktoken): encoding applies the merge of the lowest rank first. Ranks 0 to"
        " 255 are the single bytes, so merge k, the k-th merge learned, has rank and token id 255 + k. The app's"
        " tables number merges k from 1 (the column Merge), not by rank.",
        "词元在排名文件（tiktoken）中的位置：编码时先应用排名最低的合并。排名 0 到 255 是单个字节，所以第 k 次合并"
        "（学到的第 k 个合并）的排名和词元 ID 都是 255 + k。本应用的表格按合并次序 k 从 1 编号（“合并”一栏），不按排名。",
        "詞元在排名檔案（tiktoken）中的位置：編碼時先套用排名最低的合併。排名 0 到 255 是單一位元組，所以第 k 次合併"
        "（學到的第 k 個合併）的排名和詞元 ID 都是 255 + k。本應用程式的表格按合併次序 k 從 1 編號（「合併」一欄），不按排名。",
    ),
    "vocabulary": (
        "All tokens the tokenizer knows: the base symbols plus the token each merge makes; two merges that build"
        " the same string give one entry, so the vocabulary can grow by less than one per merge.",
        "分词器认识的全部词元：基础符号，加上每次合并产生的词元；两次合并拼出同一个字符串时只算一个词条，"
        "所以词表的增长可能少于合并次数。",
        "分詞器認識的全部詞元：基礎符號，加上每次合併產生的詞元；兩次合併拼出同一個字串時只算一個詞條，"
        "所以詞彙表的增長可能少於合併次數。",
    ),
    "vocabulary size": (
        "How many tokens the vocabulary holds; training can stop when it reaches a target size.",
        "词表中词元的个数；训练可以在达到目标大小时停止。",
        "詞彙表中詞元的個數；訓練可以在達到目標大小時停止。",
    ),
    "subword": (
        "A piece of a word, such as “est” in “newest”; BPE tokens are subwords.",
        "词的一部分，例如 newest 中的 est；BPE 的词元就是子词。",
        "詞的一部分，例如 newest 中的 est；BPE 的詞元就是子詞。",
    ),
    "token": (
        "One unit of the vocabulary, what text is split into (the Chinese NLP literature calls it 词元).",
        "词表中的一个单位，文本被切分成的片段（英文 token，中文 NLP 文献通常译为词元）。",
        "詞彙表中的一個單位，文字被切分成的片段（英文 token，中文 NLP 文獻通常譯為詞元）。",
    ),
    "tokenizer": (
        "What turns text into tokens and back: a pre-tokenizer and the learned merges (or another model), with the"
        " vocabulary that gives each token its id.",
        "把文本变成词元、再把词元变回文本的程序：预分词器加上学到的合并（或其他模型），以及给每个词元编号的词表。",
        "把文字變成詞元、再把詞元變回文字的程式：預分詞器加上學到的合併（或其他模型），以及給每個詞元編號的詞彙表。",
    ),
    "token id": (
        "The number that stands for a token in the vocabulary; models see only these numbers.",
        "词元在词表中对应的编号；模型看到的只是这些数字。",
        "詞元在詞彙表中對應的編號；模型看到的只是這些數字。",
    ),
    "pre-tokenization": (
        "Splitting text into words or chunks before BPE runs; merges never cross these boundaries.",
        "在 BPE 之前先把文本切成词或片段；合并从不跨越这些边界。",
        "在 BPE 之前先把文字切成詞或片段；合併從不跨越這些邊界。",
    ),
    "pre-token": (
        "One piece of text the pre-tokenizer cut out (a word, or ␣word with GPT-2's pattern); merges stay inside it.",
        "预分词器切出的一段文本（一个词，用 GPT-2 的模式时是 ␣词）；合并不会越出它。它不是词元。",
        "預分詞器切出的一段文字（一個詞，用 GPT-2 的模式時是 ␣詞）；合併不會越出它。它不是詞元。",
    ),
    "word type": (
        "A distinct word of the corpus, counted once with its frequency: newest ×6 is one word type.",
        "语料中一个不同的词，只算一次并记下频次：newest ×6 是一个词型。",
        "語料中一個不同的詞，只算一次並記下頻次：newest ×6 是一個詞型。",
    ),
    "base alphabet": (
        "The symbols training starts from: the characters seen in training, or the 256 byte values in byte-level BPE.",
        "训练的起点符号：训练中见过的字符，或字节级 BPE 中的 256 个字节值。",
        "訓練的起點符號：訓練中見過的字元，或位元組級 BPE 中的 256 個位元組值。",
    ),
    "pre-tokenizer": (
        "The rule that does the pre-tokenization: by whitespace, or a regular expression such as GPT-2's.",
        "执行预分词的规则：按空白切分，或使用正则表达式（如 GPT-2 的）。",
        "執行預分詞的規則：按空白切分，或使用正規表示式（如 GPT-2 的）。",
    ),
    "end-of-word marker": (
        "A symbol such as </w> put after each word, so that a token can tell a word's end from its middle;"
        " byte-level BPE has none: GPT-2 keeps the space before a word instead (␣the).",
        "加在每个词末尾的符号（如 </w>），让词元能区分词尾和词中；字节级 BPE 没有它：GPT-2 改为保留词前的空格（␣the）。",
        "加在每個詞末尾的符號（如 </w>），讓詞元能區分詞尾和詞中；位元組級 BPE 沒有它：GPT-2 改為保留詞前的空格（␣the）。",
    ),
    "byte-level BPE (BBPE)": (
        "BPE whose base symbols are the 256 byte values, so any text can be encoded without unknown tokens.",
        "以 256 个字节值为基础符号的 BPE，任何文本都能编码，不会出现未知词元。",
        "以 256 個位元組值為基礎符號的 BPE，任何文字都能編碼，不會出現未知詞元。",
    ),
    "OOV (out-of-vocabulary)": (
        "A word or character that the vocabulary cannot represent; byte-level BPE has none.",
        "词表无法表示的词或字符；字节级 BPE 没有未登录词。",
        "詞彙表無法表示的詞或字元；位元組級 BPE 沒有未登錄詞。",
    ),
    "byte fallback": (
        "In SentencePiece BPE (Llama 1 and 2, Mistral 7B, Gemma): a character missing from the vocabulary is"
        " written as its UTF-8 bytes instead of an unknown token. Byte-level BPE needs none: all text starts as bytes.",
        "SentencePiece BPE（Llama 1 和 2、Mistral 7B、Gemma）的做法：词表中没有的字符改用它的 UTF-8 字节表示，"
        "而不是记为未知词元。字节级 BPE 不需要它：所有文本一开始就是字节。",
        "SentencePiece BPE（Llama 1 和 2、Mistral 7B、Gemma）的做法：詞彙表中沒有的字元改用它的 UTF-8 位元組表示，"
        "而不是記為未知詞元。位元組級 BPE 不需要它：所有文字一開始就是位元組。",
    ),
    "tie": (
        "Two or more pairs with the same highest count; only one can be merged at this step.",
        "两个或更多符号对的计数同为最高；这一步只能合并其中一个。",
        "兩個或更多符號對的計數同為最高；這一步只能合併其中一個。",
    ),
    "tie-break rule": (
        "The rule that picks one pair among tied pairs: first-seen, Hugging Face order or lexical.",
        "在并列的符号对中选出一个的规则：先出现者优先、Hugging Face 顺序或字典序。",
        "在並列的符號對中選出一個的規則：先出現者優先、Hugging Face 順序或字典序。",
    ),
    "first-seen": (
        "Tie-break rule: the tied pair that appears first in the corpus wins.",
        "同分取舍规则：在语料中最先出现的那个并列符号对胜出。",
        "同分取捨規則：在語料中最先出現的那個並列符號對勝出。",
    ),
    "lexical": (
        "Tie-break rule: among tied pairs, the (left, right) pair of strings that is largest in code-point order wins"
        " (a beats Z, b beats a), as subword-nmt does.",
        "同分取舍规则：在并列的符号对中，（左，右）字符串按码位顺序最大的胜出（a 胜过 Z，b 胜过 a），与 subword-nmt 相同。",
        "同分取捨規則：在並列的符號對中，（左，右）字串按碼位順序最大的勝出（a 勝過 Z，b 勝過 a），與 subword-nmt 相同。",
    ),
    "frequency": (
        "How many times a word or pair occurs in the corpus.",
        "词或符号对在语料中出现的次数。",
        "詞或符號對在語料中出現的次數。",
    ),
    "minimum frequency": (
        "Training stops when the best pair occurs fewer times than this.",
        "当最佳符号对的出现次数低于这个值时，训练停止。",
        "當最佳符號對的出現次數低於這個值時，訓練停止。",
    ),
    "corpus": (
        "The text BPE learns from.",
        "BPE 从中学习的文本。",
        "BPE 從中學習的文字。",
    ),
    "character": (
        "One written symbol, such as a letter, a digit or a Chinese character (汉字).",
        "一个书写符号，例如字母、数字或一个汉字。",
        "一個書寫符號，例如字母、數字或一個漢字。",
    ),
    "code point": (
        "The number Unicode gives a character: 你 is U+4F60.",
        "Unicode 给每个字符分配的编号：你 是 U+4F60。",
        "Unicode 給每個字元分配的編號：你 是 U+4F60。",
    ),
    "grapheme": (
        "What a reader sees as one character, even when it is several code points (an emoji with a skin tone).",
        "读者眼中的一个字符，即使它由多个码位组成（例如带肤色的表情符号）。",
        "讀者眼中的一個字元，即使它由多個碼位組成（例如帶膚色的表情符號）。",
    ),
    "grapheme cluster": (
        "Unicode's name for what a reader sees as one character; the regex module's \\X finds them.",
        "Unicode 对“读者眼中的一个字符”的称呼；regex 模块的 \\X 可以找出它们。",
        "Unicode 對「讀者眼中的一個字元」的稱呼；regex 模組的 \\X 可以找出它們。",
    ),
    "ZWJ (zero width joiner)": (
        "U+200D, an invisible code point that joins emoji into one: 👨‍👩‍👧 is three people and two ZWJs.",
        "U+200D，一个看不见的码位，把几个 emoji 连成一个：👨‍👩‍👧 是三个人加两个零宽连接符。",
        "U+200D，一個看不見的碼位，把幾個 emoji 連成一個：👨‍👩‍👧 是三個人加兩個零寬連接符。",
    ),
    "regional indicator": (
        "One of 26 letter-like code points (U+1F1E6 to U+1F1FF); two of them make a flag: 🇯🇵 is J + P.",
        "26 个类似字母的码位之一（U+1F1E6 到 U+1F1FF）；两个连起来是一面旗帜：🇯🇵 是 J + P。",
        "26 個類似字母的碼位之一（U+1F1E6 到 U+1F1FF）；兩個連起來是一面旗幟：🇯🇵 是 J + P。",
    ),
    "UTF-8": (
        "The common way to write Unicode as bytes: ASCII takes one byte, the Chinese characters in common use"
        " three, rarer ones outside U+0000 to U+FFFF four (𠮷 U+20BB7 is f0 a0 ae b7).",
        "把 Unicode 写成字节的通行方式：ASCII 字符占一个字节，常用汉字占三个，U+0000 到 U+FFFF 以外的"
        "较罕用汉字占四个（𠮷 U+20BB7 是 f0 a0 ae b7）。",
        "把 Unicode 寫成位元組的通行方式：ASCII 字元佔一個位元組，常用漢字佔三個，U+0000 到 U+FFFF 以外的"
        "較罕用漢字佔四個（𠮷 U+20BB7 是 f0 a0 ae b7）。",
    ),
    "step": (
        "In the stepper, step k shows the corpus after merge k, and step 0 the corpus before any merge; the"
        " numbered stages 1 to 5 of the algorithm on How BPE works are another thing.",
        "在逐步观察页面，第 k 步显示第 k 次合并之后的语料，第 0 步是尚未合并时的语料；"
        "“BPE 的工作原理”页面上算法的第 1 到第 5 个环节是另一回事。",
        "在逐步觀察頁面，第 k 步顯示第 k 次合併之後的語料，第 0 步是尚未合併時的語料；"
        "「BPE 的工作原理」頁面上演算法的第 1 到第 5 個環節是另一回事。",
    ),
    "merge tree": (
        "How a token was built: the two tokens it merges, and theirs, down to base symbols.",
        "词元的构成过程：它由哪两个词元合并而来，再往下直到基础符号。",
        "詞元的構成過程：它由哪兩個詞元合併而來，再往下直到基礎符號。",
    ),
    "intermediate token": (
        "A token that later merges almost always build into longer tokens, so it is almost never kept on its own.",
        "后来的合并几乎总是把它并进更长的词元，因此它几乎从不单独留下的词元。",
        "後來的合併幾乎總是把它併進更長的詞元，因此它幾乎從不單獨留下的詞元。",
    ),
    "IoS (intersection over self)": (
        "The share of a token's occurrences that one merge takes into a longer token; PickyBPE removes a token"
        " whose IoS reaches its threshold.",
        "一次合并把某个词元的出现并进更长词元的比例；PickyBPE 删去 IoS 达到阈值的词元。",
        "一次合併把某個詞元的出現併進更長詞元的比例；PickyBPE 刪去 IoS 達到閾值的詞元。",
    ),
    "threshold": (
        "The value a score must reach for a step to happen, such as PickyBPE's IoS threshold T.",
        "某个分数要让一步发生必须达到的值，例如 PickyBPE 的 IoS 阈值 T。",
        "某個分數要讓一步發生必須達到的值，例如 PickyBPE 的 IoS 閾值 T。",
    ),
    "under-trained token (glitch token)": (
        "A token in the vocabulary that a model almost never saw in training, such as an intermediate token;"
        " a prompt that holds it can make the model misbehave.",
        "词表里有、但模型训练时几乎没见过的词元（例如中间词元）；提示中出现它时，模型可能表现失常。",
        "詞彙表裡有、但模型訓練時幾乎沒見過的詞元（例如中間詞元）；提示中出現它時，模型可能表現失常。",
    ),
    "encode": (
        "Turning text into token ids by applying the learned merges in rank order.",
        "按排名顺序应用学到的合并，把文本变成词元 ID。",
        "按排名順序應用學到的合併，把文字變成詞元 ID。",
    ),
    "decode": (
        "Turning token ids back into text by joining the tokens.",
        "把词元 ID 拼接回原来的文本。",
        "把詞元 ID 拼接回原來的文字。",
    ),
    "whitespace": (
        "Spaces, tabs and line breaks; the simplest pre-tokenizer splits at them.",
        "空格、制表符和换行；最简单的预分词器就在这些地方切分。",
        "空格、定位字元和換行；最簡單的預分詞器就在這些地方切分。",
    ),
    "regular expression": (
        "A pattern that describes text; GPT-2's pre-tokenizer is one.",
        "描述文本模式的式子；GPT-2 的预分词器就是一个正则表达式。",
        "描述文字模式的式子；GPT-2 的預分詞器就是一個正規表示式。",
    ),
    "dropout": (
        "BPE-dropout: while encoding a model's training data, skip each merge at random, so one word gets varied"
        " segmentations; switched off at inference.",
        "BPE-dropout：为训练模型编码数据时随机跳过一些合并，让同一个词得到不同的切分；推理时关闭。",
        "BPE-dropout：為訓練模型編碼資料時隨機跳過一些合併，讓同一個詞得到不同的切分；推論時關閉。",
    ),
    "chip": (
        "A coloured box around one token in the app, so you can see where tokens start and end.",
        "本应用中包住一个词元的彩色方框，让你看清词元的起止位置。",
        "本應用程式中包住一個詞元的彩色方框，讓你看清詞元的起止位置。",
    ),
    "presentation mode": (
        "Larger text and a hidden sidebar, for showing the app on a projector.",
        "字体放大、侧边栏隐藏，适合在投影仪上展示。",
        "字型放大、側邊欄隱藏，適合在投影機上展示。",
    ),
    "quiz": (
        "A question that asks you to predict the next merge before the app shows it.",
        "在应用给出答案之前，请你预测下一次合并的问题。",
        "在應用程式給出答案之前，請你預測下一次合併的問題。",
    ),
    "WordPiece": (
        "BERT's tokenizer: it merges the pair whose parts most often go together (the pair's count divided by the"
        " product of its parts' counts), marks pieces inside a word with ##, and encodes by the longest match.",
        "BERT 的分词器：合并两部分最常一起出现的符号对（符号对的计数除以两部分计数之积），用 ## 标记词内部的片段，"
        "编码时取最长匹配。",
        "BERT 的分詞器：合併兩部分最常一起出現的符號對（符號對的計數除以兩部分計數之積），用 ## 標記詞內部的片段，"
        "編碼時取最長匹配。",
    ),
    "Unigram": (
        "SentencePiece's model (T5, ALBERT): it starts from a large vocabulary and removes, round by round, the"
        " tokens the corpus misses least; it encodes with the most probable split (Viterbi).",
        "SentencePiece 的模型（T5、ALBERT）：从一个很大的词表出发，一轮一轮删去语料最不需要的词元；"
        "编码时取概率最大的切分（维特比算法）。",
        "SentencePiece 的模型（T5、ALBERT）：從一個很大的詞彙表出發，一輪一輪刪去語料最不需要的詞元；"
        "編碼時取機率最大的切分（維特比演算法）。",
    ),
    "Viterbi algorithm": (
        "Finds a word's best split by keeping, for each position, the best way to reach it, built from the best"
        " ways to reach the positions before it.",
        "为每个位置记下到达它的最佳方式（由到达前面各位置的最佳方式推出），从而找到一个词的最佳切分。",
        "為每個位置記下到達它的最佳方式（由到達前面各位置的最佳方式推出），從而找到一個詞的最佳切分。",
    ),
    "likelihood / loss": (
        "How probable the corpus is under a model; Unigram's loss is minus its logarithm, summed over the words"
        " (lower is better).",
        "语料在某个模型下的概率即似然；Unigram 的损失是它的对数取负，对所有词求和（越低越好）。",
        "語料在某個模型下的機率即似然；Unigram 的損失是它的對數取負，對所有詞求和（越低越好）。",
    ),
    "continuation prefix": (
        "The mark WordPiece puts before a token that does not start its word: ## (play ##ing).",
        "WordPiece 放在不在词首的词元前面的记号：##（play ##ing）。",
        "WordPiece 放在不在詞首的詞元前面的記號：##（play ##ing）。",
    ),
    "superword token": (
        "A token that spans more than one pre-token, such as “ of the”: SuperBPE learns them after its transition"
        " point, BoundlessBPE by merging two neighbouring pre-tokens once each is a single token.",
        "跨越不止一个预分词片段的词元，例如“ of the”：SuperBPE 在转换点之后学到它们，"
        "BoundlessBPE 则在两个相邻的预分词片段各自成为一个词元后把它们合并。",
        "跨越不只一個預分詞片段的詞元，例如「 of the」：SuperBPE 在轉換點之後學到它們，"
        "BoundlessBPE 則在兩個相鄰的預分詞片段各自成為一個詞元後把它們合併。",
    ),
    "transition point": (
        "SuperBPE's merge count t: the first t merges are learnt inside pre-tokens (plain BPE), the later ones"
        " without the cuts at spaces, so they may cross words.",
        "SuperBPE 的合并次数 t：前 t 次合并在预分词片段内部学习（即普通 BPE），之后的合并不再在空格处切分，"
        "可以跨越词语。",
        "SuperBPE 的合併次數 t：前 t 次合併在預分詞片段內部學習（即普通 BPE），之後的合併不再在空格處切分，"
        "可以跨越詞語。",
    ),
}
