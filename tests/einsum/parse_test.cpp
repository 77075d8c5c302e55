// Einsum notation: every semantic form of the subscripts, the integer-label form, label
// sizes, and every class of bad input (with the position or operand the message must name).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ops/einsum/expression.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::einsum_internal {
namespace {

using Labels = std::vector<Label>;

EinsumExpression parse(std::string_view s, std::vector<std::int64_t> ranks) {
  return parse_subscripts(s, ranks);
}

// The labels of an expression rendered back with its label names ("ij,jk->ik"), which
// checks both the structure and the id -> name mapping in one comparison.
std::string render(const EinsumExpression& e) {
  auto term = [&](const Labels& labels) {
    std::string s;
    for (Label l : labels) {
      const std::string& name = e.label_names.at(static_cast<std::size_t>(l));
      // One code point (one UTF-8 lead byte) prints bare; "..0" and integer labels in ().
      const auto code_points = std::count_if(name.begin(), name.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      });
      s += code_points == 1 ? name : "(" + name + ")";
    }
    return s;
  };
  std::string s;
  for (std::size_t k = 0; k < e.inputs.size(); ++k) s += (k ? "," : "") + term(e.inputs[k]);
  return s + "->" + term(e.output);
}

// Runs `fn`, expects a Validation error from op "einsum" and returns its message.
template <class Fn>
std::string validation_message(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation) << e.what();
    EXPECT_EQ(e.op(), "einsum");
    return e.message();
  }
  ADD_FAILURE() << "no error thrown";
  return {};
}

#define EXPECT_PARSE_ERROR(subscripts, ranks, fragment)                            \
  do {                                                                             \
    const std::string msg = validation_message([&] { parse(subscripts, ranks); }); \
    EXPECT_NE(msg.find(fragment), std::string::npos) << "message: " << msg;        \
  } while (0)

// --- Semantic forms --------------------------------------------------------------------

TEST(EinsumParse, ExplicitMatmul) {
  const auto e = parse("ij,jk->ik", {2, 2});
  EXPECT_EQ(e.inputs, (std::vector<Labels>{{0, 1}, {1, 2}}));
  EXPECT_EQ(e.output, (Labels{0, 2}));
  EXPECT_EQ(num_labels(e), 3);
  EXPECT_TRUE(e.broadcast_labels.empty());
  EXPECT_EQ(render(e), "ij,jk->ik");
}

TEST(EinsumParse, DenseIdsFollowFirstAppearance) {
  const auto e = parse("zb,bA->Az", {2, 2});
  EXPECT_EQ(e.inputs, (std::vector<Labels>{{0, 1}, {1, 2}}));
  EXPECT_EQ(e.output, (Labels{2, 0}));
  EXPECT_EQ(e.label_names, (std::vector<std::string>{"z", "b", "A"}));
}

TEST(EinsumParse, ImplicitOutputIsSortedSingletons) {
  EXPECT_EQ(render(parse("ij,jk", {2, 2})), "ij,jk->ik");
  EXPECT_EQ(render(parse("ba", {2})), "ba->ab");         // sorted, not in appearance order
  EXPECT_EQ(render(parse("ii", {2})), "ii->");           // trace
  EXPECT_EQ(render(parse("ij,ij", {2, 2})), "ij,ij->");  // full inner product
  EXPECT_EQ(render(parse("i,j", {1, 1})), "i,j->ij");    // outer product
}

TEST(EinsumParse, ImplicitOutputPutsUppercaseFirstAsNumPy) {
  // NumPy sorts the implicit output by character code: np.einsum('bA', x).shape == x.shape[::-1].
  EXPECT_EQ(render(parse("bA", {2})), "bA->Ab");
  EXPECT_EQ(render(parse("aB,Bc", {2, 2})), "aB,Bc->ac");
  EXPECT_EQ(render(parse("zZaA", {4})), "zZaA->AZaz");
}

TEST(EinsumParse, DigitsAndNonAsciiCodePointsAreLabels) {
  // opt_einsum's get_symbol(52..) gives 'À', 'Á', ..., '×' (U+00D7, a math symbol), and the
  // Einsum Benchmark's language models use digits.
  const auto e = parse("\u00c0\u00d7,\u00d70\u4e2d->\u00c0\u4e2d0", {2, 3});
  EXPECT_EQ(e.label_names, (std::vector<std::string>{"\u00c0", "\u00d7", "0", "\u4e2d"}));
  EXPECT_EQ(e.inputs, (std::vector<Labels>{{0, 1}, {1, 2, 3}}));
  EXPECT_EQ(e.output, (Labels{0, 3, 2}));
  EXPECT_EQ(render(parse("12,23", {2, 2})), "12,23->13");
  EXPECT_EQ(render(parse("\U0001d49c\u00e9", {2})), "\U0001d49c\u00e9->\u00e9\U0001d49c");
  // get_symbol(5620) is U+1680 and get_symbol(12148) U+3000, White_Space code points: labels.
  EXPECT_EQ(parse("\u1680\u3000,\u3000\u2000", {2, 2}).label_names,
            (std::vector<std::string>{"\u1680", "\u3000", "\u2000"}));
}

TEST(EinsumParse, ImplicitOutputIsInCodePointOrder) {
  // Digits before uppercase before lowercase before non-ASCII, as Python's sorted() orders
  // opt_einsum's symbols.
  EXPECT_EQ(render(parse("\u00e9a1Z", {4})), "\u00e9a1Z->1Za\u00e9");
  EXPECT_EQ(render(parse("\u4e2d\u00c0", {2})), "\u4e2d\u00c0->\u00c0\u4e2d");
}

TEST(EinsumParse, ManyDistinctLabelsAreFine) {
  std::string subscripts;
  for (char32_t c = 0x4e00; c < 0x4e00 + 300; ++c) {  // 300 CJK labels, one operand each
    if (!subscripts.empty()) subscripts += ",";
    subscripts += "\xe4";  // U+4E00..U+4EFF: 0xE4 0xB8..0xBB 0x80..0xBF
    subscripts += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    subscripts += static_cast<char>(0x80 | (c & 0x3F));
  }
  const auto e = parse(subscripts, std::vector<std::int64_t>(300, 1));
  EXPECT_EQ(num_labels(e), 300);
  EXPECT_EQ(e.output.size(), 300u);
}

TEST(EinsumParse, ManyShuffledLabelsKeepTheirIdsAndSortTheImplicitOutput) {
  // 700 code points in a scrambled order (non-ASCII ones past a hash table's growth, ASCII
  // among them), every third of them written twice: ids by first appearance, and the
  // implicit output is the others in code-point order.
  std::vector<char32_t> points;
  for (char32_t c = 0x100; points.size() < 640; ++c)
    if (is_label_code_point(c)) points.push_back(c * 7919 % 0x2000 + 0x4e00);
  for (char c = 'a'; c <= 'z'; ++c) points.push_back(static_cast<char32_t>(c));
  for (char c = '0'; c <= '9'; ++c) points.push_back(static_cast<char32_t>(c));
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  std::vector<char32_t> order = points;
  for (std::size_t i = 0; i < order.size(); ++i)  // a fixed scramble
    std::swap(order[i], order[(i * 389 + 17) % order.size()]);
  std::string subscripts;
  std::vector<std::int64_t> ranks;
  std::vector<char32_t> once;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (!subscripts.empty()) subscripts += ",";
    const bool twice = i % 3 == 0;
    subscripts += utf8_of(order[i]) + (twice ? utf8_of(order[i]) : "");
    ranks.push_back(twice ? 2 : 1);
    if (!twice) once.push_back(order[i]);
  }
  const EinsumExpression e = parse(subscripts, ranks);
  ASSERT_EQ(static_cast<std::size_t>(num_labels(e)), order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    ASSERT_EQ(e.inputs[i].front(), static_cast<Label>(i));
    EXPECT_EQ(e.label_names[i], utf8_of(order[i]));
  }
  std::sort(once.begin(), once.end());
  ASSERT_EQ(e.output.size(), once.size());
  for (std::size_t k = 0; k < once.size(); ++k)
    EXPECT_EQ(e.label_names[static_cast<std::size_t>(e.output[k])], utf8_of(once[k]));
}

TEST(EinsumParseErrors, MoreDistinctLabelsThanAPlanHoldsSaysTheLimit) {
  std::string subscripts;
  std::size_t labels = 0;
  for (char32_t c = 0x100; labels <= kMaxDistinctLabels; ++c) {
    if (!is_label_code_point(c)) continue;
    subscripts += utf8_of(c);
    ++labels;
  }
  const std::vector<std::int64_t> rank{static_cast<std::int64_t>(labels)};
  EXPECT_PARSE_ERROR(subscripts, rank,
                     std::to_string(labels) + " distinct labels; a plan holds at most " +
                         std::to_string(kMaxDistinctLabels));
}

TEST(EinsumParse, SemanticFormsKeepTheirLabels) {
  EXPECT_EQ(render(parse("ii->i", {2})), "ii->i");                   // diagonal
  EXPECT_EQ(render(parse("iij->ij", {3})), "iij->ij");               // partial diagonal
  EXPECT_EQ(render(parse("ijk->", {3})), "ijk->");                   // full sum
  EXPECT_EQ(render(parse("ijk->k", {3})), "ijk->k");                 // partial sum
  EXPECT_EQ(render(parse("ijk->kij", {3})), "ijk->kij");             // permutation
  EXPECT_EQ(render(parse("bij,bjk->bik", {3, 3})), "bij,bjk->bik");  // batch label
  EXPECT_EQ(render(parse("ij,ij->ij", {2, 2})), "ij,ij->ij");        // Hadamard
  EXPECT_EQ(render(parse("ij,kl->ijkl", {2, 2})), "ij,kl->ijkl");    // outer product
}

TEST(EinsumParse, DiagonalEmbeddingRepeatsAnOutputLabel) {
  // Deliberately unlike NumPy (which rejects it): "i->ii" is a listed semantic.
  const auto e = parse("i->ii", {1});
  EXPECT_EQ(e.inputs, (std::vector<Labels>{{0}}));
  EXPECT_EQ(e.output, (Labels{0, 0}));
  EXPECT_EQ(render(parse("ij->iij", {2})), "ij->iij");
}

TEST(EinsumParse, RankZeroOperands) {
  EXPECT_EQ(render(parse("", {0})), "->");
  EXPECT_EQ(render(parse("->", {0})), "->");
  EXPECT_EQ(render(parse(",", {0, 0})), ",->");
  EXPECT_EQ(render(parse(",ij->ij", {0, 2})), ",ij->ij");
  EXPECT_EQ(render(parse("i,", {1, 0})), "i,->i");
}

TEST(EinsumParse, WhitespaceIsTolerated) {
  EXPECT_EQ(render(parse(" i j , j k -> i k ", {2, 2})), "ij,jk->ik");
  EXPECT_EQ(render(parse("\tij,\njk\r->ik", {2, 2})), "ij,jk->ik");
  EXPECT_EQ(render(parse(" ... i , ... i -> ... ", {2, 2})), "(..0)i,(..0)i->(..0)");
}

TEST(EinsumParse, EllipsisExpandsToFreshLabels) {
  const auto e = parse("...ij,...jk->...ik", {4, 3});
  // Two broadcast dims (the larger ellipsis), right-aligned: operand 1 gets only the last.
  EXPECT_EQ(e.broadcast_labels, (Labels{3, 4}));
  EXPECT_EQ(render(e), "(..0)(..1)ij,(..1)jk->(..0)(..1)ik");
}

TEST(EinsumParse, EllipsisInTheMiddleAndAtTheEnd) {
  EXPECT_EQ(render(parse("i...j->j...i", {4})), "i(..0)(..1)j->j(..0)(..1)i");
  EXPECT_EQ(render(parse("ij...->...", {3})), "ij(..0)->(..0)");
  EXPECT_EQ(render(parse("...->...", {0})), "->");       // an empty ellipsis
  EXPECT_EQ(render(parse("ij->...ij", {2})), "ij->ij");  // output '...' with no broadcast dims
}

TEST(EinsumParse, ImplicitOutputPutsEllipsisFirst) {
  EXPECT_EQ(render(parse("...ij,...jk", {3, 3})), "(..0)ij,(..0)jk->(..0)ik");
  EXPECT_EQ(render(parse("i...", {3})), "i(..0)(..1)->(..0)(..1)i");
  EXPECT_EQ(render(parse("...,...", {1, 2})), "(..1),(..0)(..1)->(..0)(..1)");
}

TEST(EinsumParse, OutputMayOmitAnEmptyEllipsis) {
  // Dropping '...' from the output is an error only when it covers dimensions (see below).
  EXPECT_EQ(render(parse("...i->i", {1})), "i->i");
}

TEST(EinsumParse, IntegerLabelsAreRemappedDensely) {
  const EinsumLabels labels{{{100, -7}, {-7, 42}}, {42, 100}};
  const std::vector<std::int64_t> ranks{2, 2};
  const auto e = from_labels(labels, ranks);
  EXPECT_EQ(e.inputs, (std::vector<Labels>{{0, 1}, {1, 2}}));
  EXPECT_EQ(e.output, (Labels{2, 0}));
  EXPECT_EQ(e.label_names, (std::vector<std::string>{"100", "-7", "42"}));
  EXPECT_TRUE(e.broadcast_labels.empty());
}

TEST(EinsumParse, IntegerLabelsAllowTracesEmbeddingsAndScalars) {
  const std::vector<std::int64_t> ranks{2, 0};
  const auto e = from_labels(EinsumLabels{{{5, 5}, {}}, {5, 5}}, ranks);
  EXPECT_EQ(e.inputs, (std::vector<Labels>{{0, 0}, {}}));
  EXPECT_EQ(e.output, (Labels{0, 0}));
}

TEST(EinsumLabelSizes, SizesByLabel) {
  const auto e = parse("ij,jk->ik", {2, 2});
  const std::vector<Shape> shapes{{2, 3}, {3, 5}};
  EXPECT_EQ(label_sizes(e, shapes), (std::vector<std::int64_t>{2, 3, 5}));
}

TEST(EinsumLabelSizes, ZeroExtentsAreSizes) {
  const auto e = parse("ij,jk->ik", {2, 2});
  const std::vector<Shape> shapes{{2, 0}, {0, 5}};
  EXPECT_EQ(label_sizes(e, shapes), (std::vector<std::int64_t>{2, 0, 5}));
}

TEST(EinsumLabelSizes, EllipsisBroadcastsSizeOne) {
  const auto e = parse("...i,...i->...i", {3, 2});
  // labels: i=0, ..0=1, ..1=2; operand 0 is (..0, ..1, i) = (5, 1, 3) and operand 1 is
  // (..1, i) = (4, 3), so ..0 = 5 and ..1 broadcasts 1 against 4.
  const std::vector<Shape> shapes{{5, 1, 3}, {4, 3}};
  EXPECT_EQ(label_sizes(e, shapes), (std::vector<std::int64_t>{3, 5, 4}));
  // Size 1 broadcast against size 0 gives 0, as in NumPy.
  const std::vector<Shape> empty{{2, 1, 3}, {0, 3}};
  EXPECT_EQ(label_sizes(e, empty), (std::vector<std::int64_t>{3, 2, 0}));
}

TEST(EinsumLabelSizes, LetterLabelsBroadcastSizeOneAsNumPy) {
  const auto e = parse("ij,ij->i", {2, 2});
  // i: 1 against 4 (the later operand gives the size); j: 5 against 1 (the earlier one does).
  const std::vector<Shape> shapes{{1, 5}, {4, 1}};
  EXPECT_EQ(label_sizes(e, shapes), (std::vector<std::int64_t>{4, 5}));
  // Extents other than 1 still have to agree; the message names both axes.
  const std::vector<Shape> bad{{1, 5}, {4, 3}};
  const std::string msg = validation_message([&] { label_sizes(e, bad); });
  EXPECT_NE(msg.find("operand 1 axis 1 (label 'j') has extent 3 but operand 0 axis 1 has extent 5"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("only an extent of 1 broadcasts"), std::string::npos) << msg;
}

TEST(EinsumLabelSizes, RepeatedLabelInOneOperandDoesNotBroadcast) {
  // NumPy refuses "ii" on a (1, 3) operand; so do we, though 1 broadcasts across operands.
  const auto e = parse("ii,i->i", {2, 1});
  const std::vector<Shape> shapes{{1, 3}, {3}};
  const std::string msg = validation_message([&] { label_sizes(e, shapes); });
  EXPECT_NE(msg.find("operand 0 axis 1 (label 'i') has extent 3 but axis 0 of the same operand"),
            std::string::npos)
      << msg;
  // A (1, 1) diagonal broadcasts against the other operand's 3.
  const std::vector<Shape> ok{{1, 1}, {3}};
  EXPECT_EQ(label_sizes(e, ok), (std::vector<std::int64_t>{3}));
}

TEST(EinsumLabelSizes, MismatchNamesOperandAndAxis) {
  const auto e = parse("ij,jk->ik", {2, 2});
  const std::vector<Shape> shapes{{2, 3}, {4, 5}};
  const std::string msg = validation_message([&] { label_sizes(e, shapes); });
  EXPECT_NE(msg.find("operand 1 axis 0 (label 'j') has extent 4 but operand 0 axis 1 has extent 3"),
            std::string::npos)
      << msg;
}

TEST(EinsumLabelSizes, TraceNeedsEqualExtents) {
  const auto e = parse("ii->", {2});
  const std::vector<Shape> shapes{{2, 3}};
  const std::string msg = validation_message([&] { label_sizes(e, shapes); });
  EXPECT_NE(msg.find("operand 0 axis 1 (label 'i') has extent 3"), std::string::npos) << msg;
}

TEST(EinsumLabelSizes, EllipsisMismatchOtherThanOne) {
  const auto e = parse("...,...->...", {1, 1});
  const std::vector<Shape> shapes{{2}, {3}};
  const std::string msg = validation_message([&] { label_sizes(e, shapes); });
  EXPECT_NE(msg.find("operand 1 axis 0 (label '..0') has extent 3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("only an extent of 1 broadcasts"), std::string::npos) << msg;
}

TEST(EinsumLabelSizes, ShapeRankAndCountAreChecked) {
  const auto e = parse("ij->i", {2});
  const std::vector<Shape> wrong_rank{{2, 3, 4}};
  EXPECT_NE(validation_message([&] { label_sizes(e, wrong_rank); }).find("operand 0 has rank 3"),
            std::string::npos);
  const std::vector<Shape> two{{2, 3}, {2, 3}};
  EXPECT_NE(
      validation_message([&] { label_sizes(e, two); }).find("name 1 operand(s) but 2 were given"),
      std::string::npos);
  const std::vector<Shape> negative{{2, -1}};
  EXPECT_NE(validation_message([&] {
              label_sizes(e, negative);
            }).find("operand 0 axis 1 has a negative extent"),
            std::string::npos);
}

// --- Bad input: one test per class, each checking where the message points --------------

TEST(EinsumParseErrors, UnknownCharacterGivesItsPosition) {
  EXPECT_PARSE_ERROR("ij,j#->i", std::vector<std::int64_t>({2, 2}),
                     "unexpected character '#' at position 4");
  EXPECT_PARSE_ERROR("i_", std::vector<std::int64_t>({2}), "'_' at position 1");
  EXPECT_PARSE_ERROR(std::string("ij\x01"), std::vector<std::int64_t>({3}),
                     "byte 0x01 at position 2");
  // The Latin-1 spaces are no labels (U+00A0 no-break space, U+0085 next line); the spaces
  // opt_einsum's get_symbol emits (U+1680, U+2000-U+200A, U+3000, ...) are (EinsumParse).
  EXPECT_PARSE_ERROR("i\xc2\xa0j", std::vector<std::int64_t>({2}), "U+00A0 at position 1");
  EXPECT_PARSE_ERROR("i\xc2\x85j", std::vector<std::int64_t>({2}), "U+0085 at position 1");
}

TEST(EinsumParseErrors, InvalidUtf8GivesItsBytePosition) {
  EXPECT_PARSE_ERROR("ij,\xc3", std::vector<std::int64_t>({2, 1}),
                     "invalid UTF-8: byte 0xc3 at position 3");  // truncated
  EXPECT_PARSE_ERROR("i\xa9", std::vector<std::int64_t>({2}), "byte 0xa9 at position 1");
  EXPECT_PARSE_ERROR("\xc0\xafi", std::vector<std::int64_t>({2}), "byte 0xc0 at position 0");
  EXPECT_PARSE_ERROR("\xed\xa0\x80", std::vector<std::int64_t>({1}), "position 0");  // surrogate
  EXPECT_PARSE_ERROR("\xf4\x90\x80\x80", std::vector<std::int64_t>({1}), "position 0");
  EXPECT_PARSE_ERROR("\xff", std::vector<std::int64_t>({1}), "byte 0xff at position 0");
}

TEST(EinsumParseErrors, LoneDashOrGreater) {
  EXPECT_PARSE_ERROR("ij-ik", std::vector<std::int64_t>({2}),
                     "'-' at position 2 is not followed by '>'");
  EXPECT_PARSE_ERROR("ij-", std::vector<std::int64_t>({2}), "'-' at position 2");
  EXPECT_PARSE_ERROR("ij- >i", std::vector<std::int64_t>({2}), "'-' at position 2");
  EXPECT_PARSE_ERROR("ij>i", std::vector<std::int64_t>({2}),
                     "'>' at position 2 without a preceding '-'");
}

TEST(EinsumParseErrors, RepeatedArrow) {
  EXPECT_PARSE_ERROR("ij->j->i", std::vector<std::int64_t>({2}), "second '->' at position 5");
}

TEST(EinsumParseErrors, CommaInOutput) {
  EXPECT_PARSE_ERROR("ij,jk->i,k", std::vector<std::int64_t>({2, 2}),
                     "',' after '->' at position 8");
}

TEST(EinsumParseErrors, BrokenEllipsis) {
  EXPECT_PARSE_ERROR("..i", std::vector<std::int64_t>({1}),
                     "'.' at position 0 is not part of an ellipsis");
  EXPECT_PARSE_ERROR("i.. .", std::vector<std::int64_t>({1}), "'.' at position 1");
  EXPECT_PARSE_ERROR("i,..", std::vector<std::int64_t>({1, 0}), "'.' at position 2");
}

TEST(EinsumParseErrors, MoreThanOneEllipsisPerOperand) {
  EXPECT_PARSE_ERROR("ij,...j...->i", std::vector<std::int64_t>({2, 3}),
                     "second ellipsis '...' at position 7 in operand 1 (first at position 3)");
  EXPECT_PARSE_ERROR("...i->......", std::vector<std::int64_t>({2}),
                     "second ellipsis '...' at position 9 in the output");
}

TEST(EinsumParseErrors, WrongOperandCount) {
  EXPECT_PARSE_ERROR("ij,jk->ik", std::vector<std::int64_t>({2}),
                     "the subscripts name 2 operand(s) but 1 were given");
  EXPECT_PARSE_ERROR("ij", std::vector<std::int64_t>({2, 2}), "name 1 operand(s) but 2 were given");
  EXPECT_PARSE_ERROR("", std::vector<std::int64_t>({}), "at least one operand");
}

TEST(EinsumParseErrors, RankMismatchNamesTheOperand) {
  EXPECT_PARSE_ERROR("ij,jk->ik", std::vector<std::int64_t>({2, 3}),
                     "operand 1: subscripts 'jk' name 2 axes but the operand has rank 3");
  EXPECT_PARSE_ERROR("ij,jk->ik", std::vector<std::int64_t>({1, 2}),
                     "operand 0: subscripts 'ij' name 2 axes");
  EXPECT_PARSE_ERROR(
      "ij,...jk->ik", std::vector<std::int64_t>({2, 1}),
      "operand 1: subscripts '...jk' need at least 2 axes but the operand has rank 1");
  EXPECT_PARSE_ERROR("i", std::vector<std::int64_t>({-1}), "operand 0 has a negative rank");
}

TEST(EinsumParseErrors, OutputLabelAbsentFromInputs) {
  EXPECT_PARSE_ERROR("ij,jk->iz", std::vector<std::int64_t>({2, 2}),
                     "output label 'z' at position 8 appears in no input");
  EXPECT_PARSE_ERROR("ij -> i Q", std::vector<std::int64_t>({2}), "output label 'Q' at position 8");
}

TEST(EinsumParseErrors, OutputMustKeepBroadcastDimensions) {
  EXPECT_PARSE_ERROR("...ij->ij", std::vector<std::int64_t>({3}), "the output has no '...'");
}

TEST(EinsumParseErrors, IntegerLabels) {
  const std::vector<std::int64_t> ranks{2, 2};
  auto message = [&](const EinsumLabels& labels, std::span<const std::int64_t> r) {
    return validation_message([&] { from_labels(labels, r); });
  };
  EXPECT_NE(message({{{0, 1}, {1}}, {0}}, ranks)
                .find("operand 1: 1 labels given but the operand has rank 2"),
            std::string::npos);
  EXPECT_NE(message({{{0, 1}, {1, 2}}, {0, 9}}, ranks)
                .find("output label 9 (output axis 1) appears in no input"),
            std::string::npos);
  EXPECT_NE(message({{{0, 1}}, {0}}, ranks).find("name 1 operand(s) but 2 were given"),
            std::string::npos);
}

TEST(EinsumParseErrors, ErrorsAreValidationAtInputPhase) {
  try {
    parse("i?", {2});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation);
    EXPECT_EQ(e.phase(), ErrorPhase::Input);
    EXPECT_NE(std::string(e.what()).find("einsum: "), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tenferro::einsum_internal
