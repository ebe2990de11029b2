"""Tests of the page checks that need no GPU and no NumPy (tools/pages/, run by make check-pages):
a Chinese page planted with the variants and number forms the glossary rejects fails
check_docs.py's rules, one line per hit that names the page, the line and what to write; the
forms the glossary chooses pass; a line break inside a Chinese sentence fails (it shows as a
space); and results_table.py writes a count in 万 or 亿 where a marker's format asks for it
(issue 41)."""
import sys
from pathlib import Path

import pytest

PAGES = Path(__file__).resolve().parents[2] / "tools" / "pages"


@pytest.fixture(scope="module")
def tools():
    sys.path.insert(0, str(PAGES))
    try:
        import check_docs
        import results_table
        yield check_docs, results_table
    finally:
        sys.path.remove(str(PAGES))


PLANTED = """# 第 07 步：bank 冲突

> **改变的数字。** 4096³ 下的 GFLOP/s。

几个通道（lane）落在同一个存储体的不同地址上，这就是存储体冲突。
少掉的指令共 <!--v:152-->152<!--/v--> 百万条；cuBLAS 发射了 2.43 × 10⁹ 条指令。
K 增大了 64 倍。K = 16384 时误差小
<!--v:5.1|.1f-->5.1<!--/v--> 倍，是 "acc" 变体。
第 09 步发布版本中的配置是 `Config` 记录；公共框架计时；和 cuBLAS 基准比；发一个合并请求。

## 实测

| 做法 | 算法 | GFLOP/s |
|:--|:--|--:|
| dispatch 停顿 | FP32 | 1 |

**改一处。** 把 BM 改成 16。

这里是[第 07 步课程](README.zh-CN.md)用到的结果；ncu 把时钟锁在基础频率，强制模拟 sm_75 这个 GPU 类。
今天的内核：共享内存数据通路很忙，wavefront 翻倍，长记分板升高；racecheck 报告竞争冒险；行距；步骤程序。
全局加载变为 <!--v:0.8|.1f-->0.8<!--/v--> 倍，两种形状相差 1.23 倍。
BLIS 把这叫作*打包*；朴素实现不是调优的冠军；主程序先给 C 下毒，M = 0 时什么都不碰。
发射槽（issue slot）利用率在第 01 步首次起作用，见 issue。

| 类 | GPU 举例 |

ncu 把时钟固定在基础时钟；“mio throttle”和 barrier 停顿都高；主机端测试照常跑，结果校验；测量噪声；线程块的光栅顺序；数据的摆放。
"""

# (line, what the page wrote, a word of what to write instead)
EXPECTED = [
    (3, "改变的数字", "关键数字"),
    (5, "通道", "lane"), (5, "存储体冲突", "bank 冲突"),
    (6, "百万", "亿"), (6, "× 10⁹", "亿"),
    (7, "增大了 64 倍", "是原来的"), (7, "小5.1 倍", "1/N"),
    (8, '"acc"', "“…”"),
    (9, "发布版本", "默认配置"), (9, "`Config` 记录", "结构体"), (9, "基准", "基线"),
    (9, "公共框架", "测试框架"), (9, "合并请求", "PR"),
    (11, "## 实测", "实测结果"),
    (13, "| 做法 | 算法 |", "运算方式"),
    (15, "dispatch", "分派停顿"),
    (17, "改一处", "改一处试试"),
    (19, "课程", "讲解"), (19, "基础频率", "基础时钟"), (19, "强制模拟", "强制按"), (19, "GPU 类", "GPU 类别"),
    (20, "内核", "核函数"), (20, "数据通路", "共享内存管线"), (20, "wavefront", "波前"), (20, "长记分板", "long scoreboard"),
    (20, "竞争冒险", "0 hazards"), (20, "行距", "行步长"), (20, "步骤程序", "可执行文件"),
    (21, "0.8 倍", "降到原来的"), (21, "相差 1.23 倍", "前者是后者"),
    (22, "*打包*", "bold"), (22, "朴素实现", "朴素核函数"), (22, "冠军", "胜出的配置"), (22, "主程序", "测试框架"),
    (22, "下毒", "填满 NaN"), (22, "什么都不碰", "不读写任何数据"),
    (23, "发射槽（issue slot）利用率", "使用率"), (23, "首次起作用", "首次用到"), (23, "issue", "issue 39"),
    (25, "| 类 |", "GPU 类别"),
    (27, "固定在基础时钟", "锁在基础时钟"), (27, "mio throttle", "MIO throttle"), (27, "barrier", "屏障"),
    (27, "主机端测试", "主机测试"), (27, "校验", "验证"), (27, "噪声", "波动"), (27, "光栅", "线程块重排"), (27, "摆放", "存放"),
]


def test_a_planted_chinese_page_fails_with_each_rule(tools):
    check_docs, _ = tools
    found = check_docs.term_problems(Path("steps/07_bank_conflicts/planted.zh-CN.md"), PLANTED)
    assert len(found) == len(EXPECTED), "\n".join(found)
    for line, wrote, instead in EXPECTED:
        prefix = f"steps/07_bank_conflicts/planted.zh-CN.md:{line}: '{wrote}' -> "
        assert any(f.startswith(prefix) and instead in f for f in found), (prefix, found)


ALLOWED = """# 第 07 步：bank 冲突

> **关键数字。** 4096³ 下的 GFLOP/s。

几个 lane 落在同一个存储体的不同地址上，这就是 bank 冲突（存储体冲突）；bank 冲突要多走几趟。
少掉的 <!--v:1.52e8|亿.2f-->1.52 亿<!--/v-->条指令中，<!--v:6.3e7|万,.0f-->6,300 万<!--/v-->条是加载。
K 是原来的 64 倍，误差只有其 1/4.9；“acc” 变体；默认配置；配置用结构体 `Config` 描述；每次只改一处。
测试框架计时；和 cuBLAS 基线比，见基准测试；发一个 PR（pull request）；分派停顿（dispatch stall）。
本课程第 2 次课讲第 07 步讲解；时钟锁在基础时钟；强制按 sm_75 类别运行；GPU 类别；核函数；NVIDIA 内核模块。
共享内存管线；波前（wavefront）；long scoreboard；racecheck 报告 `0 hazards`；行步长；可执行文件。
扇区降到原来的 0.8，速度是它的 0.98；前者是后者的 1.23 倍。
BLIS 把这叫作**打包**，a * b；朴素核函数；胜出的配置；测试框架先把 C 填满 NaN；不读写任何数据。
发射槽（issue slot）使用率；issue 39 和 GitHub issue；首次用到；《Accuracy and Stability》。
ncu 把时钟锁在基础时钟；停顿：屏障（barrier）、MIO throttle；主机测试；验证结果，校验和；运行间的波动；线程块重排；存放位置。

## 实测结果

| 做法 | 运算方式 | GFLOP/s |
|:--|:--|--:|

**改一处试试。** 把 BM 改成 16。

```text
存储体冲突 百万 "acc" 算法 in code are not checked
```
"""


def test_the_glossarys_forms_pass(tools):
    check_docs, _ = tools
    assert check_docs.term_problems(Path("planted.zh-CN.md"), ALLOWED) == []


def test_a_lesson_is_jiangjie_and_kecheng_the_course(tools):
    check_docs, _ = tools
    # on a step's own pages 课程 can only be the lesson; elsewhere only the forms that name a lesson fail
    assert check_docs.term_problems(Path("steps/07_bank_conflicts/lab.zh-CN.md"), "讲解见课程。\n")
    assert check_docs.term_problems(Path("docs/teaching.zh-CN.md"), "更短的课程；本课程。\n") == []
    found = check_docs.term_problems(Path("docs/gpus.zh-CN.md"), "各课的数字；见第 05 步的课程。\n")
    assert [f.split("'")[1] for f in found] == ["各课", "第 05 步的课程"]


def test_the_gloss_stands_once_per_page(tools):
    check_docs, _ = tools
    twice = "bank 冲突（存储体冲突）在这里。\n\n又一次 bank 冲突（存储体冲突）。\n"
    found = check_docs.term_problems(Path("p.zh-CN.md"), twice)
    assert found == ["p.zh-CN.md: 'bank 冲突（存储体冲突' 2 times -> write the gloss once, "
                     "at the page's first bank 冲突"]


def test_the_self_test_passes(tools):
    check_docs, _ = tools
    assert check_docs.self_test() > 0


BROKEN = """第 12 步几乎全部留下：每个输入写成
两个 TF32 数之和，x = hi + lo。

> **思路。** 四项乘积只算三项，
> 小项先算。

- 列表项，
  续行。
- 新的列表项

cuBLAS FP32
<!--v:1.32|.2f-->1.32<!--/v--> 倍。

| 表格 | 行 |
| 第二 | 行 |

```text
代码里的换行，
不查。
```
"""


def test_a_line_break_inside_a_chinese_sentence_fails(tools):
    check_docs, _ = tools
    found = check_docs.break_problems(Path("p.zh-CN.md"), BROKEN)
    assert [f.split(": ", 1)[0] for f in found] == ["p.zh-CN.md:1", "p.zh-CN.md:4", "p.zh-CN.md:7"], found
    assert "('成' | '两')" in found[0] and "join the two lines" in found[0]
    joined = "第 12 步几乎全部留下：每个输入写成两个 TF32 数之和。\n\n- 列表项，续行。\n- 新的列表项\n"
    assert check_docs.break_problems(Path("p.zh-CN.md"), joined) == []


@pytest.mark.parametrize("expr, text", [
    ("152000000|亿.2f", "1.52 亿"), ("62957000|万,.0f", "6,296 万"), ("70866960384|亿.0f", "709 亿"),
    ("10600000|万", "1,060 万"), ("2.29e8\\|亿.2f", "2.29 亿"),  # '\|' as inside a table row
])
def test_a_marker_writes_a_count_in_wan_or_yi(tools, expr, text):
    _, results_table = tools
    assert results_table.figure(expr, PAGES / "README.md") == text
