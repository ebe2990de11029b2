#!/usr/bin/env python3
r"""Host check of the Markdown pages, run by `make test`.

1. Every relative link and image path in every tracked Markdown page exists
   (anchors after '#' are not checked; web links are not followed).
2. Every English page (README.md, steps/*/README.md, docs/*.md) has a Chinese twin
   (*.zh-CN.md) with the same heading structure: the same number of headings, at the
   same levels, in the same order. The maintainers' notes under tools/ are in English only.
   A step's lab notes (steps/NN_name/lab.md) are such a page: lab.zh-CN.md must exist beside
   them with the same headings, and each of the step's lessons (README.md, README.zh-CN.md)
   must link its own language's lab notes.
3. Every inline figure marker <!--v:...-->value<!--/v--> is whole (results_table.py fills it;
   a marker left open would never be filled and its figure could go stale), and in a table row
   its format follows '\|', since GitHub splits a table cell at every bare '|', comments too.
4. Every Chinese page (*.zh-CN.md: README, lessons, lab notes, docs) uses the fixed term of
   docs/glossary.zh-CN.md ("固定译法") for each concept: a variant listed in TERMS fails, one
   line per hit naming the page, the line and the term to use. Fenced code, inline code and
   the generated <!-- results --> blocks are not checked, nor the first (English) column of
   the glossary's tables; so the glossary names the rejected variants in inline code.
   A lesson is 讲解 and 课程 the whole course: on a step's own pages (lesson, lab notes) any 课程
   but 本课程 fails; elsewhere the forms that name a lesson (第 05 步课程, [课程], 各课) fail.
   The same pages follow the usage rules of USAGE (the glossary's 中文的写法): the section
   labels (关键数字, 实测结果, 改一处试试, 离下界多远); counts in 万 and 亿 (no 百万, no × 10ⁿ),
   written by a marker's 万 or 亿 format (results_table.py); a ratio as 是原来的 N 倍 or 只有其
   1/N, never 增大了 N 倍, 小 N 倍, 0.8 倍 or 相差 N 倍; Chinese quotation marks “…” in prose; no
   italics (*斜体*: Chinese typography has none, so bold or no emphasis); and
   bank 冲突, whose book name 存储体冲突 stands once on a page, in parentheses after its first
   bank 冲突. A rule may match
   across a line break inside a paragraph (小\n<!--v:...-->2.3<!--/v--> 倍); the hit is reported
   at the line where it starts. Before checking the pages, the rules are checked on a planted
   page (PLANTED): each planted line must fail with its rule, and the allowed forms must pass.
   A Chinese paragraph stands on one line: a line break inside it next to a CJK character or
   full-width punctuation shows as a space in the browser, and fails (break_problems; checked
   first on PLANTED_BREAKS).
5. Every script under tools/ that the project tells someone to run by its path runs as written
   (`tools/exercises/exercise.py reset 05` in a page, a command line in a fenced block, a script
   or the Makefile, a `usage:` line): it exists, starts with a shebang and has the run bit in
   git's index (a fresh clone gets the index's mode; where the tree is not a git checkout, the
   file's own mode). Every Python file under tools/ with a `__main__` block and every shell file
   under tools/ with a shebang is such a script too; a shell file without one must say on its
   first line that it is sourced. `python3 tools/x.py` and `. tools/x.sh` need no run bit, and
   a path only named (`tools/x.py` alone in inline code) is no command. A copy of the tree
   that kept no file modes at all (no file with a run bit, in git's index or on disk: the GPU
   machines' copies are such) cannot be checked for run bits; one line says so, and the shebangs
   are still checked.
6. The front page's set-up line installs what CI installs: the `apt-get install` line of
   README.md and README.zh-CN.md names the same Debian packages as .ci/run's `packages` list
   (less `make`, which the README names as a requirement), so that a new user's machine gets
   what the tests were proven with.
7. The docs site scales its pictures to the page: docs/Doxyfile names docs/site.css as its extra
   stylesheet, and that sheet caps an image's width at the page's (max-width: 100%); without it
   the wide plots lose their right panel in a 1280-px window.

usage: tools/pages/check_docs.py
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from results_table import INLINE, ROOT, pages  # the same pages the tables are written into

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")


def prose_lines(text):
    """The lines outside fenced code blocks."""
    inside = False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            inside = not inside
            continue
        if not inside:
            yield line


# One Chinese term per concept (docs/glossary.zh-CN.md, section 固定译法): variant -> the term.
# A variant is a regular expression; keep this list and the glossary's table in step. Each
# pattern is as narrow as the pages need: it must not hit ordinary words that contain it
# (阶段, 片段, 手段, 一份, 存储体, 存储器, 局部变量, a Linux 内核模块).
TERMS = [
    (r"张量核(?!心)", "张量核心 (tensor core)"),
    (r"算术强度|计算访存比|(?<!计算)访存比|运算强度", "计算强度 (arithmetic intensity)"),
    (r"设备内存", "显存 (device memory)"),
    (r"启动代码", "启动函数 (launcher)"),
    # lane and bank 冲突 stay as Chinese engineers write them, like warp (glossary: 中文的写法)
    (r"线程（lane）|通道", "lane (not translated, as warp is: 第 i 个 lane, 32 个 lane, lane 4g + t)"),
    (r"线程束", "warp"),
    (r"(?:FMA|FFMA|LSU|MIO|共享内存|数学|执行)\s?流水线", "管线 (a hardware pipe: FMA 管线, 共享内存管线)"),
    (r"(?<!异或置换（)(?<!异或置换（XOR )(?<!\w)[Ss]wizzle", "异或置换（swizzle）"),
    (r"序言", "预取阶段（prologue）"),
    (r"随代码发布|发布版本|当时发布|发布的(?:是|版本|配置|核函数)",
     "默认配置 or 最终采用的配置 (shipped; 仓库里的核函数 for the kernel as committed)"),
    (r"`Config`\s?记录|Config\s?记录|配置记录", "结构体 or 配置项 (the Config record: 配置用结构体 `Config` 描述)"),
    (r"合并请求", "PR（pull request）"),
    # one term per concept where the pages had two
    (r"基准(?!测试)", "基线 (baseline; 基准 is left to 基准测试, benchmarking)"),
    (r"公共框架|主程序", "测试框架 (harness)"),
    (r"(?<!分派停顿（)\bdispatch\b", "分派停顿 (dispatch stall; 分派停顿（dispatch stall） at first use)"),
    (r"(?:FP32|TF32|FFMA)\s?的算法|[两三几各]种算法|各用各的算法|要的算法|分块和算法|^\|(?:[^|]*\|)*\s*算法\s*\|",
     "运算方式 (the arithmetic: FP32, TF32, 3xTF32)"),
    (r"内核函数|kernel\s?函数", "核函数 (kernel)"),
    (r"占有率", "占用率 (occupancy)"),
    (r"合并访问|访存合并", "合并访存 (coalescing)"),
    (r"共享存储器?", "共享内存 (shared memory)"),
    (r"局部内存|局部存储", "本地内存 (local memory)"),
    # copy: 复制 everywhere (复制到共享内存, cp.async 异步复制); 拷/拷贝 is the spoken form.
    (r"拷贝?", "复制 (copy)"),
    # store, the memory operation, is 写入 (STG: 全局内存写入, STS: 共享内存写入); 存储 alone
    # would read like 存储体 (bank). 存储 stays only in 存储体, 存储器, 存储层次, 存储系统,
    # 存储空间 and 片上存储 (storage, not a store).
    (r"存储冲突|Bank\s?冲突|bank冲突|(?<!bank 冲突（)存储体冲突",
     "bank 冲突 (bank conflict); 存储体冲突 only once, in parentheses at its first use: bank 冲突（存储体冲突）"),
    (r"(?<!共享)(?<!局部)(?<!片上)存储(?!体|器|层次|系统|空间|冲突)",
     "写入 (a store: STG, STS) or 存储器 (storage) or 存放 (how data lies)"),
    (r"边缘分块|边缘块", "边界分块 (edge tile)"),
    (r"封装", "打包 (packing: common/launch/pack.cuh)"),
    (r"分块大小|tile\s?(?:大小|尺寸)", "分块尺寸 (tile size)"),
    (r"warp\s?位置", "warp 槽位 (warp slot)"),
    (r"高瘦|宽扁|扁宽|矮宽|瘦长|细长", "瘦高 (C with few columns) / 矮胖 (C with few rows); thin shapes: 瘦高与矮胖的形状"),
    # split-K: K 拆分成 S 个切片 (slice), 切片数 S. The patterns need the verb (切成/拆成/分成)
    # or the split-K phrases, since 段 and 份 alone are in 一段时间, 阶段, 一份报告.
    (r"切分", "拆分 K (split-K)"),
    (r"[切拆分]成[^，。；：]{0,10}?[段份]|(?<![阶片手时])段数|各段(?!落)|自己那一段|一段的乘积",
     "切片 (a slice of K in split-K: K 拆成 S 个切片, 切片数)"),
    (r"性能分析", "性能剖析 (profiling), 剖析器 (profiler)"),
    (r"乒乓缓冲", "双缓冲 (double buffering)"),
    (r"阶梯|(?<![A-Za-z0-9_/-])ladder(?![A-Za-z0-9_.-])", "`make ladder` (name it by its command, in inline code)"),
    # the second review's terms (issue 41): one word each where the pages still had two or three
    (r"基础频率|基频|固定在基础时钟", "基础时钟 (base clock; ncu 把时钟锁在基础时钟)"),
    (r"强制模拟|模拟各类|模拟(?:成|为)?\s?(?:sm_\d+|较小的|更小的)",
     "强制按某一类 GPU 运行 (a forced class runs on the H100, it is not simulated: SGEMM_GPU_CLASS)"),
    (r"GPU\s?类(?![别型])|^\|(?:[^|]*\|)*\s*类\s*\|", "GPU 类别 (GPU class; sm_75 类 as a short form; a column's header too)"),
    (r"竞争冒险|竞争隐患|(?<![A-Za-z_])hazards?(?![A-Za-z_])",
     "`hazard` as racecheck prints it, in inline code (它应当报告 `0 hazards`)"),
    (r"(?<!操作系统)内核(?!模块|函数)", "核函数 (kernel; 内核 is the operating system's, as in NVIDIA 内核模块)"),
    (r"数据通路|共享内存通路", "共享内存管线 (the shared-memory pipe, as the FMA 管线)"),
    (r"(?<!波前（)(?<!波前\*（)(?<![A-Za-z_])wavefronts?(?![A-Za-z_])", "波前 (wavefront; 波前（wavefront） at first use)"),
    (r"长记分板|短记分板|(?:MIO|LG)\s?节流|数学管线节流|未被选中|mio\s?throttle",
     "the stall's name as ncu prints it: long scoreboard, short scoreboard, MIO throttle, LG throttle, "
     "math pipe throttle, not selected"),
    (r"行距", "行步长 (row stride)"),
    (r"步骤程序", "可执行文件 (a step's program: ./step05)"),
    # the third review's terms (issue 41): one word for each where the pages said it two or three ways
    (r"朴素实现", "朴素核函数 (step 01, the naive kernel)"),
    (r"冠军|胜出者|(?<!获)胜者", "胜出的配置 (the configuration a tuning search keeps; 胜出配置的 before a noun)"),
    (r"下毒", "先把 C 填满 NaN (C poisoned with NaN before the kernel runs)"),
    (r"什么都不碰", "不读写任何数据 (M = 0 or N = 0: nothing touched)"),
    (r"发射槽[^，。；\n]{0,20}?利用率", "发射槽使用率 (issue slots used)"),
    (r"(?:首次|第一次|开始)起作用", "首次用到 (where a term first matters)"),
    # the fourth review's terms (issue 41): one word each where the pages said it two ways
    (r"(?<!屏障（)(?<![A-Za-z_])barrier(?![A-Za-z_])", "屏障 (the barrier stall: 屏障停顿; 屏障（barrier） at first use)"),
    (r"主机端测试", "主机测试 (host test)"),
    (r"校验(?!和)", "验证 (verify: 先验证, 验证结果; 校验 would read as a checksum, 校验和)"),
    (r"噪声", "波动 (run-to-run noise: 运行间的波动, 在波动之内; 误差 is a numerical error)"),
    (r"光栅", "线程块重排 (block rasterization), 线程块的排列顺序 (the order the blocks run in)"),
    (r"摆放", "存放 (where data lies: 数据在共享内存里的存放位置)"),
    # a GitHub issue goes with its number (issue 39) or as GitHub issue; an instruction's issue is 发射（issue）
    (r"(?<!GitHub )(?<![A-Za-z_（-])issue(?![A-Za-z_]|[\s-]?\d|\s?slots?\b)",
     "issue 39 (with its number) or GitHub issue; an instruction's issue is 发射（issue）"),
]
# A lesson is 讲解; 课程 is the whole course (本课程) and 课 a class session (第 2 次课). On a step's
# own pages (its lesson and lab notes) 课程 can only mean the lesson; elsewhere the forms that
# name a step's lesson fail.
LESSON_ON_STEP_PAGES = (r"(?<![本这整门])课程", "讲解 (the lesson: 第 05 步讲解, [讲解](README.zh-CN.md); 课程 is the whole course)")
LESSON_ELSEWHERE = (r"第\s?\d+\s?步的?课程|\[课程\]|各课(?!程)|每一课",
                    "讲解 (a step's lesson: 第 05 步讲解, 各步的讲解; 课程 is the whole course)")
INLINE_CODE = re.compile(r"`[^`]*`")
GENERATED = re.compile(r"^<!-- results: .*-->$")


def reader_lines(text):
    """(number, line) for each line of a page written by hand and read as prose: outside fenced
    code and outside the generated <!-- results: ... --> blocks (check_figures.py reads these too)."""
    fenced = generated = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if FENCE.match(stripped):
            fenced = not fenced
        elif GENERATED.match(stripped):
            generated = True
        elif stripped == "<!-- /results -->":
            generated = False
        elif not (fenced or generated):
            yield number, line


# How Chinese readers expect the pages to be written (issue 41; the glossary's 中文的写法):
# pattern -> what to write. The patterns see the prose as TERMS do (markers as their values).
USAGE = [
    (r"改变的数字", "关键数字 (the label on a lesson's first line: **关键数字。**)"),
    (r"^#{1,6}\s+实测\s*$", "## 实测结果 (the section label)"),
    (r"(?<!只)改一处(?!试试)", "改一处试试 (the section label: **改一处试试。**)"),
    (r"对照下界", "离下界多远 (the label before a lesson's distance to its lower bound; 对照 is the control experiment)"),
    (r"百万", "万 or 亿, written by the marker: <!--v:EXPR|万,.0f--> or <!--v:EXPR|亿.2f--> (1.52 亿, 6,296 万)"),
    (r"[×x]\s?10(?:[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+|\^)", "万 or 亿 (a marker's |万 or |亿 format: 23.4 亿, not 2.34 × 10⁹)"),
    (r"(?:增大|增加|提高|扩大|增长|上升|升高)了\s?[\d.,]+\s?倍",
     "是原来的 N 倍 or 变为原来的 N 倍 (增大了 N 倍 reads as N + 1 times)"),
    (r"(?<![\d.,])(?:小|少|低|短|降低了|减少了|缩小了|下降了)\s?[\d.,]+\s?倍",
     "只有其 1/N or 降为 N 分之一 (no multiple for a decrease)"),
    (r"(?<![\d.,])0\.\d+\s?倍", "降到原来的 0.8 or 是它的 0.98 (no 倍 below one: that is a decrease)"),
    (r"相差\s?[\d.,]+\s?倍", "前者是后者的 N 倍 (相差 N 倍 does not say which is N times the other)"),
    (r'"[^"]*"|"', "Chinese quotation marks “…” in prose (or inline code for a name the reader types)"),
    (r"'[^'\s][^']*[\u4e00-\u9fff][^']*'", "Chinese quotation marks “…” in prose"),
    # *斜体*: Chinese typography has no italics (the rules read the prose with the bold marks ** left out)
    (r"(?<![*\\A-Za-z0-9_])\*(?=[^\s*])[^*\n]*?[\u4e00-\u9fff][^*\n]*?(?<=[^\s*\\])\*(?![*A-Za-z0-9_])",
     "bold (**…**) or no emphasis: Chinese has no italics; a section as “先验证”一节, a book title in 《》"),
]
HTML_TAG = re.compile(r"<[a-zA-Z/][^>]*>")
PARAGRAPH_END = re.compile(r"^\s*(?:$|#|\||>\s*$|[-*] |\d+\. |<(?!!--v:))")


def chinese_prose(line, glossary):
    """A line of a Chinese page as the rules read it: markers as their values, no inline code,
    no bold marks, no HTML tags; in the glossary's tables, without the first (English) column.
    Also the line with its inline code kept (for `Config` 记录)."""
    shown = INLINE.sub(lambda m: m["value"], line).replace("**", "")
    shown = HTML_TAG.sub("", shown)
    if glossary and shown.startswith("|"):
        shown = shown.split("|", 2)[-1]  # the first column is the English term
    return INLINE_CODE.sub("", shown), shown


def term_problems(rel, text):
    """A line per banned variant or broken usage rule on a Chinese page, outside code and
    generated blocks. A match may run on into the next line of the same paragraph (a Chinese
    sentence is broken anywhere); it is reported at the line where it starts."""
    out = []
    glossary = rel.name == "glossary.zh-CN.md"
    lines = [(number, *chinese_prose(line, glossary), line) for number, line in reader_lines(text)]
    lesson = LESSON_ON_STEP_PAGES if rel.parts[:1] == ("steps",) else LESSON_ELSEWHERE
    rules = [(v, "use " + t) for v, t in TERMS + [lesson]] + [(v, "write " + t) for v, t in USAGE]
    for i, (number, prose, with_code, raw) in enumerate(lines):
        following = ""
        if i + 1 < len(lines) and lines[i + 1][0] == number + 1 and not PARAGRAPH_END.match(raw) \
                and not PARAGRAPH_END.match(lines[i + 1][3]):
            following = lines[i + 1][1]  # the same paragraph goes on
        code = [m.span() for m in INLINE_CODE.finditer(with_code)]
        for variant, term in rules:
            seen = with_code if "`" in variant else prose
            for m in re.finditer(variant, seen + following, re.M):
                if m.start() < len(seen) and not (seen is with_code and any(
                        s <= m.start() and m.end() <= e for s, e in code)):  # not a variant named in code
                    out.append(f"{rel}:{number}: '{m.group(0)}' -> {term}")
    glosses = sum(p.count("bank 冲突（存储体冲突") for _, p, _, _ in lines)
    if glosses > 1:
        out.append(f"{rel}: 'bank 冲突（存储体冲突' {glosses} times -> write the gloss once, at the page's first bank 冲突")
    return out


# A Chinese page planted with every banned form (each line must fail with its own rule), and
# the forms that must pass; checked before the pages, so that a rule that stops matching fails.
PLANTED = [
    "> **改变的数字。** 4096³ 下的 GFLOP/s。",
    "## 实测",
    "**改一处。** 把 BM 改成 16。**对照下界。** 1.98 ms。",
    "少掉的指令共 <!--v:152-->152<!--/v--> 百万条。",
    "cuBLAS 发射了 <!--v:2.43|.2f-->2.43<!--/v--> × 10⁹ 条指令。",
    "K 增大了 64 倍，fro 增大了 <!--v:7.98|.2f-->7.98<!--/v--> 倍。",
    "K = 16384 时小",
    "<!--v:5.1|.1f-->5.1<!--/v--> 倍，全局加载变为 <!--v:0.8|.1f-->0.8<!--/v--> 倍，两者相差 5.06 倍。",
    '三个乘积直接加进 `acc`（"acc" 变体）。',
    "几个通道（lane）访问同一个存储体的不同地址，就是存储体冲突。",
    "第 09 步发布版本中的 `kConfigs` 有三个，它的配置是 `Config` 记录。",
    "然后发一个合并请求，和 cuBLAS 基准比较。",
    "公共框架负责计时；dispatch 停顿升高；两种算法。",
    "| 做法 | 算法 | GFLOP/s |",
    "讲解见第 05 步课程，剖析时时钟锁在基础频率（基频）。",
    "强制模拟 sm_75 这个 GPU 类，racecheck 报告竞争冒险（hazard）。",
    "今天的内核：共享内存数据通路很忙，wavefront 数翻倍，长记分板和 LG 节流都高。",
    "行距是 128 字节的倍数；每个步骤程序都打印报告。",
    "BLIS 把这叫作*打包*；第 01 步的朴素实现不是调优的冠军、胜者或胜出者。",
    "主程序先给 C 下毒，M = 0 时什么都不碰；发射槽（issue slot）利用率在第 01 步首次起作用，见 issue。",
    "| 类 | GPU 举例 |",
    "ncu 把时钟固定在基础时钟；“mio throttle”和 barrier 停顿都高；主机端测试照常跑，结果校验；测量噪声；线程块的光栅顺序；数据的摆放。",
]
PLANTED_HITS = [["改变的数字"], ["## 实测"], ["改一处", "对照下界"], ["百万"], ["× 10⁹"], ["增大了 64 倍", "增大了 7.98 倍"],
                ["小5.1 倍"], ["0.8 倍", "相差 5.06 倍"], ['"acc"'], ["通道", "存储体冲突"], ["发布版本", "`Config` 记录"], ["合并请求", "基准"],
                ["公共框架", "dispatch", "两种算法"], ["| 做法 | 算法 |"],
                ["基础频率", "基频", "课程"], ["强制模拟", "GPU 类", "竞争冒险", "hazard"],
                ["内核", "数据通路", "wavefront", "长记分板", "LG 节流"], ["行距", "步骤程序"],
                ["朴素实现", "冠军", "胜者", "胜出者", "*打包*"],
                ["主程序", "下毒", "什么都不碰", "发射槽（issue slot）利用率", "首次起作用", "issue"], ["| 类 |"],
                ["固定在基础时钟", "mio throttle", "barrier", "主机端测试", "校验", "噪声", "光栅", "摆放"]]
# The lesson's forms that fail on a page outside steps/, where 课程 is the course.
PLANTED_ELSEWHERE = "各课的讲解见[课程](README.zh-CN.md)和第 05 步的课程；每一课都一样。"
PLANTED_ELSEWHERE_HITS = ["各课", "[课程]", "第 05 步的课程", "每一课"]
ALLOWED = "\n".join([
    "> **关键数字。** 4096³ 下的 GFLOP/s。", "",
    "## 实测结果", "",
    "**改一处试试。** 每次只改一处，和默认配置那一行对比。**离下界多远。** 对照实验。", "",
    "少掉的 <!--v:1.52e8|亿.2f--><!--/v-->条指令中，有 <!--v:6.3e7|万,.0f--><!--/v-->条是加载。",
    "K 是原来的 64 倍，误差只有其 1/4.9，降为 7.7 分之一，扇区降到原来的 0.8；前者是后者的 5.06 倍；Gbyte = 10⁹。",
    "一个 warp 里几个 lane 落在同一个存储体上，就是 bank 冲突（存储体冲突）；bank 冲突要多走几趟。",
    "“acc” 变体；基准测试；测试框架；分派停顿（dispatch stall）；运算方式；配置用结构体 `Config` 描述。",
    "设 a' = a(1 + δa)、b' = b(1 + δb)；`\"acc\"` 在行内代码里。",
    "本课程共 12 步，第 2 次课讲第 05 步讲解；时钟锁在基础时钟；强制按 sm_75 类别运行，GPU 类别，sm_75 类。",
    "racecheck 报告 `0 hazards`；核函数；加载 NVIDIA 内核模块；共享内存管线；波前（wavefront）；"
    "long scoreboard 和 LG throttle；行步长；可执行文件；基于 BF16 的 FP32 模拟。",
    "BLIS 把这叫作**打包**，a * b = 2*3；朴素核函数；胜出的配置，胜出配置的速度；先把 C 填满 NaN；不读写任何数据。",
    "发射槽（issue slot）使用率，即 “issue slots used”；issue 39 和 GitHub issue；术语首次用到的那一步；《Accuracy and Stability》。",
    "ncu 把时钟锁在基础时钟；停顿：屏障（barrier）、MIO throttle，`mio_throttle`；主机测试；验证结果，校验和；运行间的波动；"
    "线程块重排，线程块的排列顺序；数据在共享内存里的存放位置。",
    "```text", "// 存储体冲突 百万 \"acc\" 在代码里不查", "```",
])


def self_test():
    """The usage rules catch each planted form and nothing in the allowed ones; raises if not."""
    for rel in Path("planted.zh-CN.md"), Path("steps/00_planted/planted.zh-CN.md"):
        found = term_problems(rel, ALLOWED)
        if found:
            raise SystemExit("check_docs self-test: the allowed forms fail:\n" + "\n".join(found))
    elsewhere = [f.split(": '", 1)[1].rsplit("' -> ", 1)[0]
                 for f in term_problems(Path("docs/planted.zh-CN.md"), PLANTED_ELSEWHERE)]
    if elsewhere != PLANTED_ELSEWHERE_HITS:
        raise SystemExit(f"check_docs self-test: '{PLANTED_ELSEWHERE}' gave {elsewhere}, expected {PLANTED_ELSEWHERE_HITS}")
    rel = Path("steps/00_planted/planted.zh-CN.md")  # on a step's page, 课程 is the lesson
    text = "\n".join(PLANTED) + "\n"
    found = term_problems(rel, text)
    for number, want in enumerate(PLANTED_HITS, 1):
        got = [f.split(": '", 1)[1].rsplit("' -> ", 1)[0] for f in found if f.startswith(f"{rel}:{number}: ")]
        if got != want:
            raise SystemExit(f"check_docs self-test: planted line {number} '{PLANTED[number - 1]}' gave {got}, "
                             f"expected {want}")
    return len(found) + len(elsewhere)


# A line break inside a Chinese sentence: CommonMark keeps it as a newline, and a browser shows a
# newline next to a CJK character as a space ("…TF32 就不够用。 第 01–10 步…" on GitHub and on the
# Doxygen site), so a Chinese paragraph stands on one line. The break is a fault where the character
# shown before it or after it (a marker shows its value; the next line's indentation and a
# blockquote's '>' left out) is a CJK character, full-width punctuation or a Chinese quotation
# mark. Not checked: fenced code, generated blocks, HTML blocks and comments, tables, headings,
# hard breaks (two spaces or '\' at the end), and a line that starts a block (a list item, a
# heading, a table row, a blockquote, a fence, HTML, a thematic break).
CJK_CHAR = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef\u2018-\u201f\u2026\u2014\u00b7]")
BLOCK_START = re.compile(r"^\s*(?:[-*+] |\d+[.)] |\|.*\|\s*$|#|>|```|~~~|<(?!!--v:))")  # a table row ends in '|' too
THEMATIC = re.compile(r"^\s*([-*_=])(?:\s*\1)+\s*$")


def break_problems(rel, text):
    """A line per line break inside a paragraph of a Chinese page next to a CJK character."""
    out = []
    prev = None  # (shown text, quoted) of the paragraph line before, or None at a block's end
    fenced = generated = comment = html = False
    for number, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        para = None
        if FENCE.match(s):
            fenced = not fenced
        elif fenced:
            pass
        elif generated:
            generated = s != "<!-- /results -->"
        elif comment:
            comment = "-->" not in s
        elif html:
            html = bool(s)  # an HTML block ends at a blank line
        elif GENERATED.match(s):
            generated = True
        elif s.startswith("<!--") and not s.startswith("<!--v:"):
            comment = "-->" not in s
        elif re.match(r"^<[A-Za-z/]", s):
            html = True
        else:
            para = line
        if para is None or not s:
            prev = None
            continue
        quoted = re.match(r"^>\s?(\S.*)$", line)
        body = quoted.group(1) if quoted else line
        if prev and (not BLOCK_START.match(line) or (quoted and prev[1] and not BLOCK_START.match(body))) \
                and not THEMATIC.match(body):
            before = INLINE.sub(lambda m: m["value"], prev[0]).rstrip()[-1:]
            after = INLINE.sub(lambda m: m["value"], body).lstrip()[:1]
            if CJK_CHAR.match(before) or CJK_CHAR.match(after):
                out.append(f"{rel}:{number - 1}: a line break inside a Chinese sentence ('{before}' | '{after}') "
                           "shows as a space -> join the two lines")
        ends_block = (line.endswith("  ") or line.endswith("\\") or THEMATIC.match(line)
                      or re.match(r"^\s*(?:\|.*\|\s*$|#)", line) or (quoted is None and s.startswith(">")))
        prev = None if ends_block else (line, bool(quoted))
    return out


# A planted page for break_problems: the breaks after lines 1, 4, 7, 12 and 19 must be caught, the others
# (a list item's start, a table, code, a hard break, Latin on both sides, a heading) must pass.
PLANTED_BREAKS = "\n".join([
    "第 11 步把输入舍入成 TF32，",           # 1: '，' | '第'
    "第 12 步几乎全部留下。",
    "",
    "> **思路。** 每个输入写成",              # 4: '成' | '两'
    "> 两个 TF32 数之和。",
    "",
    "- 列表项的第一行，",                     # 7: '，' | '接'
    "  接着写的第二行。",
    "- 新的列表项",
    "- 另一项",
    "",
    "速度是 <!--v:gf(12)-->69,363<!--/v-->",  # 12: '3' | '万', a marker shows its value
    "万次；cuBLAS FP32",
    "<!--v:1.0-->1.0<!--/v--> 倍。",
    "",
    "| 表格 | 行 |",
    "| 第二 | 行 |",
    "",
    "|x| 小于约 2^−115 时，",               # 19: '，' | '截', a line that starts with '|' is no table row
    "截断可能丢得更多。",
    "",
    "硬换行在这里  ",
    "不算。",
    "## 标题",
    "正文。",
    "",
    "```text",
    "代码里的换行，",
    "不算。",
    "```",
])
PLANTED_BREAK_LINES = [1, 4, 7, 12, 19]


def break_self_test():
    """break_problems catches each planted break and nothing else; raises if not."""
    found = break_problems(Path("planted.zh-CN.md"), PLANTED_BREAKS)
    got = [int(f.split(":")[1]) for f in found]
    if got != PLANTED_BREAK_LINES:
        raise SystemExit(f"check_docs self-test: the line-break rule caught lines {got} of the planted page, "
                         f"expected {PLANTED_BREAK_LINES}:\n" + "\n".join(found))
    return len(found)


def headings(page):
    return [len(m.group(1)) for line in prose_lines(page.read_text(encoding="utf-8"))
            if (m := re.match(r"^(#{1,6}) ", line))]


# A script run by its path, ./ or not: at the start of a command (a line, after a `$ ` prompt or a
# make recipe's @ or -, after `usage:`, &&, ||, ;, | or $( ), or at the start of inline code, a
# string or a comment when an argument follows (inline code holding the path alone names the file).
SCRIPT = r"(?:\./)?(tools/[\w./-]+\.(?:py|sh))"
RUN = [re.compile(r"(?:^[ \t]*(?:\$[ \t]+|[@-]+)?|usage:[ \t]+|(?:&&|\|\||;|\||\$\()[ \t]*)" + SCRIPT
                  + r"(?=[ \t]|$|[`'\";|&])"),
       re.compile(r"(?:`|\"|'|//[ \t]+|#[ \t]+)" + SCRIPT + r"(?=[ \t]+[-\w{<\[$])")]
SHEBANG = {".py": ("#!/usr/bin/env python3",), ".sh": ("#!/bin/sh", "#!/bin/bash", "#!/usr/bin/env bash")}


def tracked_files():
    """(path relative to ROOT, mode from git's index or None) of every file of the project: the
    index's mode is what a fresh clone gets; without git (a copy made by git archive), or with the
    .git of another commit, no mode (the file's own is checked instead)."""
    def git(*args):
        return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout

    try:
        # the project's own checkout, not a copy that lies inside some other repository, nor a copy
        # whose .git is of another commit than its files (SGEMM_COMMIT names the files' commit
        # there, as on the GPU machines: tools/measure/gpu_meta.sh), whose index has stale modes
        commit = os.environ.get("SGEMM_COMMIT", "").removesuffix("-dirty")
        if (Path(git("rev-parse", "--show-toplevel").strip()).resolve() == ROOT.resolve()
                and (not commit or git("rev-parse", "HEAD").startswith(commit))):
            return {line.split("\t", 1)[1]: line.split(" ", 1)[0]
                    for line in git("ls-files", "-s", "-z").split("\0") if line}
    except (OSError, subprocess.CalledProcessError):
        pass
    return {str(p.relative_to(ROOT)): None for p in ROOT.rglob("*")
            if p.is_file() and not {".git", "build"} & set(p.relative_to(ROOT).parts)}


def documented_runs(files):
    """{script path: first place that runs it by its path} over the pages, sources and notebooks."""
    runs = {}
    for rel in sorted(files, key=lambda rel: (not rel.endswith(".md"), rel)):  # a page's line first
        name = os.path.basename(rel)
        if not (name.endswith((".md", ".cu", ".cuh", ".sh", ".py", ".ipynb")) or name.startswith(("Makefile", "README"))):
            continue
        path = ROOT / rel
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if name.endswith(".ipynb"):  # the cells' text, not the JSON's quoted lines
            text = "\n".join("".join(c.get("source", "")) for c in json.loads(text).get("cells", []))
        for number, line in enumerate(text.split("\n"), 1):
            for pattern in RUN:
                for m in pattern.finditer(line):
                    runs.setdefault(m.group(1), f"{rel}:{number}")
    return runs


def script_problems():
    """A line per script that would not run as the project says to run it."""
    files = tracked_files()
    scripts = documented_runs(files)
    for rel in files:
        if rel.startswith("tools/") and rel.endswith((".py", ".sh")) and (ROOT / rel).is_file():
            text = (ROOT / rel).read_text(encoding="utf-8")
            first = text.split("\n", 1)[0]
            if rel.endswith(".sh") and not first.startswith("#!"):
                if "sourced" not in first.lower():
                    scripts.setdefault(rel, "a shell file under tools/ that does not say it is sourced")
            elif rel.endswith(".sh") or re.search(r"^if __name__ == .__main__.:", text, re.M):
                scripts.setdefault(rel, "a script under tools/")
    out = []
    # a copy that kept no modes at all: nothing to check the run bits against
    modes_kept = any(m == "100755" for m in files.values()) or any(
        m is None and os.access(ROOT / rel, os.X_OK) for rel, m in files.items())
    if not modes_kept:
        print("note: no file of this copy has a run bit (in git's index or on disk): its file modes were "
              "not kept, so the scripts' run bits are not checked here")
    for rel, where in sorted(scripts.items()):
        path = ROOT / rel
        if not path.is_file():
            out.append(f"{rel}: run by its path ({where}) but no such file")
            continue
        first = path.read_text(encoding="utf-8").split("\n", 1)[0].strip()
        if first not in SHEBANG[path.suffix]:
            out.append(f"{rel}: run by its path ({where}) but its first line is not a shebang "
                       f"({' or '.join(SHEBANG[path.suffix])})")
        mode = files.get(rel)
        if not modes_kept:
            continue
        if mode is None and not os.access(path, os.X_OK):
            out.append(f"{rel}: run by its path ({where}) but has no run bit (chmod +x {rel})")
        elif mode is not None and mode != "100755":
            out.append(f"{rel}: run by its path ({where}) but has no run bit in git's index, so a clone "
                       f"cannot run it (chmod +x {rel} && git update-index --chmod=+x {rel})")
    return out


def setup_problems():
    """The README's apt-get line against .ci/run's package list (item 6)."""
    ci = re.search(r"^packages=\(([^)]*)\)", (ROOT / ".ci" / "run").read_text(encoding="utf-8"), re.M)
    if not ci:
        return [".ci/run: no packages=(...) list to compare the README's set-up line with"]
    wanted = set(ci.group(1).split()) - {"make"}
    problems = []
    for name in ("README.md", "README.zh-CN.md"):
        lines = [ln for ln in (ROOT / name).read_text(encoding="utf-8").split("\n")
                 if ln.startswith("apt-get install ")]
        if len(lines) != 1:
            problems.append(f"{name}: {len(lines)} 'apt-get install' lines, where the quick start has one")
            continue
        named = set(lines[0].split()[2:])
        for what, packages in (("lacks", wanted - named), ("installs more than CI:", named - wanted)):
            if packages:
                problems.append(f"{name}: the apt-get line {what} {' '.join(sorted(packages))} "
                                "(.ci/run's packages are the set the tests were proven with)")
    return problems


def stylesheet_problems():
    """The docs site's pictures fit the page (item 7)."""
    m = re.search(r"^HTML_EXTRA_STYLESHEET\s*=\s*(\S+)", (ROOT / "docs" / "Doxyfile").read_text(encoding="utf-8"), re.M)
    sheet = ROOT / m.group(1) if m else None
    if not sheet or not sheet.exists():
        return ["docs/Doxyfile: no HTML_EXTRA_STYLESHEET naming docs/site.css, so the site's wide pictures are cut off"]
    if not re.search(r"img\s*\{[^}]*max-width:\s*100%", sheet.read_text(encoding="utf-8")):
        return [f"{sheet.relative_to(ROOT)}: no 'img {{ max-width: 100% }}' rule, so the site's wide pictures are cut off"]
    return []


def main():
    planted = self_test() + break_self_test()
    problems = script_problems() + setup_problems() + stylesheet_problems()
    all_pages = list(pages())
    for page in all_pages:
        rel = page.relative_to(ROOT)
        text = page.read_text(encoding="utf-8")
        if text.count("<!--v:") != len(INLINE.findall(text)) or text.count("<!--/v-->") != text.count("<!--v:"):
            problems.append(f"{rel}: an inline figure marker <!--v:...--> is not closed by <!--/v--> on its line")
        for number, line in enumerate(text.split("\n"), 1):
            if line.lstrip().startswith("|") and any(re.search(r"(?<!\\)\|", m["expr"]) for m in INLINE.finditer(line)):
                problems.append(f"{rel}:{number}: a figure marker's format in a table row must follow '\\|', "
                                "not '|' (a bare '|' splits the table cell)")
        if rel.parts[0] == "steps" and page.name.startswith("README"):
            lab = "lab.zh-CN.md" if page.name.endswith(".zh-CN.md") else "lab.md"
            if (page.parent / "lab.md").exists() and f"]({lab}" not in text:
                problems.append(f"{rel}: does not link its lab notes {lab}")
        if page.name.endswith(".zh-CN.md"):
            problems += term_problems(rel, text) + break_problems(rel, text)
        for line in prose_lines(page.read_text(encoding="utf-8")):
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                    continue
                path = target.split("#")[0]
                if not (page.parent / path).exists():
                    problems.append(f"{rel}: broken link or image path '{target}'")
        if page.name.endswith(".zh-CN.md") or rel.parts[:2] == ("docs", "results") or rel.parts[0] == "tools":
            continue
        twin = page.with_name(page.name[:-3] + ".zh-CN.md")
        if not twin.exists():
            problems.append(f"{rel}: no Chinese twin {twin.relative_to(ROOT)}")
        elif (en := headings(page)) != (zh := headings(twin)):
            problems.append(f"{rel}: headings differ from {twin.relative_to(ROOT)} "
                            f"(levels {en} vs {zh})")
    for p in problems:
        print(p)
    print(f"docs check: {len(all_pages)} pages, the scripts they run, the set-up line, the site's stylesheet: "
          f"{len(problems)} problems (self-test: {planted} hits on the planted Chinese page, each caught)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
