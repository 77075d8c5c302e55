// Einsum notation: subscripts and integer labels -> EinsumExpression, and label sizes.
//
// Rules (NumPy's, with the deliberate differences marked "Unlike NumPy"):
//  * The subscripts are UTF-8. A label is one code point: an ASCII letter, an ASCII digit, or
//    any non-ASCII code point but U+0085 and U+00A0 -- so every symbol opt_einsum's
//    get_symbol, cotengra and quimb emit ('À', '×', CJK, U+3000, ...) is a label, and so are the
//    digits the Einsum Benchmark's language-model instances use. Unlike NumPy (letters only;
//    it refuses digits), digits are labels: opt_einsum and cotengra accept them and no
//    meaning is lost. ASCII punctuation and control characters stay errors, and so does
//    invalid UTF-8. Whitespace (ASCII space, tab, CR, LF) may separate any two tokens but
//    cannot split '->' or '...' (NumPy's C parser also requires '->' whole).
//  * At most kMaxDistinctLabels distinct labels (a Validation error says so above it): the
//    planners keep one bit per label in every operand's label set.
//  * Without '->' the output is implicit: the ellipsis dimensions first, then every label
//    that appears exactly once over all inputs, in code-point order -- NumPy sorts by
//    character code, so uppercase comes before lowercase ("bA" -> "Ab"; checked against
//    NumPy 2.4), and opt_einsum sorts other symbols by code point too.
//  * '...' stands for the leading-or-inner dimensions an operand has beyond its letters.
//    Ellipsis parts are right-aligned across operands (NumPy broadcasting): with B the
//    largest ellipsis length, an operand with e ellipsis dims gets the last e of the B
//    broadcast labels. An explicit output that omits '...' while B > 0 is an error, as in
//    NumPy's einsum ("output has more dimensions than subscripts given").
//  * Unlike NumPy, a label may repeat in an explicit output: "i->ii" is the diagonal
//    embedding the einsum issue lists among the supported semantics (NumPy rejects every
//    repeated output label). The executor writes such outputs on their diagonal, zeros
//    elsewhere. What stays an error is what has no meaning: a second ellipsis in the
//    output, and an output label that no input has.
//  * As NumPy's C einsum and opt_einsum, an extent of 1 broadcasts against the same label's
//    longer extent in another operand (any label, lettered or ellipsis); the axes one operand
//    repeats a label on must agree exactly (label_sizes).
// Positions in messages are 0-based character offsets into the subscripts string.
#include "ops/einsum/expression.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <string>

#include "core/flat_hash_map.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::einsum_internal {
namespace {

constexpr const char* kOp = "einsum";

bool is_space(char32_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
// Every code point opt_einsum's get_symbol emits is a label: from index 52 on it is
// chr(i + 140), U+00C0 upward, which includes White_Space code points (U+1680, U+2000-U+200A,
// U+2028, U+2029, U+202F, U+205F, U+3000: get_symbol(5620) is U+1680), so a network of more
// than 5620 labels named that way needs them. The two Latin-1 spaces below that range
// (U+0085, U+00A0: a no-break space pasted by accident) stay errors.
bool is_label(char32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  return c != 0x85 && c != 0xA0;
}

// The code point starting at s[i] and its length in bytes; nullopt for invalid UTF-8 (a bad
// lead or continuation byte, an overlong form, a surrogate, beyond U+10FFFF).
std::optional<std::pair<char32_t, std::size_t>> decode_utf8(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return std::pair<char32_t, std::size_t>{b0, 1};
  std::size_t len = 0;
  char32_t cp = 0, min = 0;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return std::nullopt;
  }
  if (i + len > s.size()) return std::nullopt;
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return std::nullopt;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
  return std::pair<char32_t, std::size_t>{cp, len};
}

std::string encode_utf8(char32_t c) {
  std::string out;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
  return out;
}

// A character for an error message: printable as itself, otherwise as a hex escape.
std::string describe_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte < 0x7f) return std::string("'") + c + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02x", static_cast<unsigned>(byte));
  return buf;
}

std::string hex(char32_t c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04X", static_cast<unsigned>(c));
  return buf;
}

std::string at(std::size_t pos) {
  return " at position " + std::to_string(pos);
}

// One comma-separated term: its labels are the code points [begin, split) left of '...' and
// [split, end) right of it (split == end without one) in ParsedSubscripts::points. One array for
// all terms: a vector per term was two allocations per operand, a tenth of parsing a
// 200-operand network.
struct Term {
  std::size_t begin = 0, split = 0, end = 0;
  bool has_ellipsis = false;
  std::size_t ellipsis_pos = 0;
  std::size_t num_letters() const { return end - begin; }
};

struct ParsedSubscripts {
  std::vector<char32_t> points;  // every term's labels, term after term
  std::vector<Term> inputs;
  std::optional<Term> output;                  // absent in implicit mode
  std::vector<std::size_t> output_letter_pos;  // position of each output letter (explicit)

  std::span<const char32_t> before(const Term& t) const {
    return {points.data() + t.begin, t.split - t.begin};
  }
  std::span<const char32_t> after(const Term& t) const {
    return {points.data() + t.split, t.end - t.split};
  }
  std::string text(const Term& t) const {
    std::string s;
    for (char32_t c : before(t)) s += encode_utf8(c);
    if (t.has_ellipsis) s += "...";
    for (char32_t c : after(t)) s += encode_utf8(c);
    return s;
  }
};

// Tokenizes and checks the grammar: terms (letters, at most one '...') separated by ',',
// then optionally '->' and one output term.
ParsedSubscripts split_subscripts(std::string_view s) {
  ParsedSubscripts parsed;
  parsed.points.reserve(s.size());
  parsed.inputs.emplace_back();
  // A term's labels are appended as they come; `split` follows `end` until its ellipsis.
  Term* term = &parsed.inputs.back();
  const auto start_term = [&](Term& t) {
    t.begin = t.split = t.end = parsed.points.size();
    term = &t;
  };
  bool in_output = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto decoded = decode_utf8(s, i);
    if (!decoded) {
      throw_validation(
          kOp, "invalid UTF-8: " + describe_char(s[i]) + at(i) + " (subscripts are UTF-8 text)");
    }
    const char32_t c = decoded->first;
    if (is_space(c)) continue;
    if (is_label(c)) {
      parsed.points.push_back(c);
      term->end = parsed.points.size();
      if (!term->has_ellipsis) term->split = term->end;
      if (in_output) parsed.output_letter_pos.push_back(i);
      i += decoded->second - 1;
      continue;
    }
    if (c == ',') {
      if (in_output)
        throw_validation(kOp, "',' after '->'" + at(i) + ": the output is a single term");
      start_term(parsed.inputs.emplace_back());
      continue;
    }
    if (c == '.') {
      if (i + 2 >= s.size() || s[i + 1] != '.' || s[i + 2] != '.') {
        throw_validation(kOp, "'.'" + at(i) + " is not part of an ellipsis '...'");
      }
      if (term->has_ellipsis) {
        const std::string where = in_output ? std::string("the output")
                                            : "operand " + std::to_string(parsed.inputs.size() - 1);
        throw_validation(kOp, "second ellipsis '...'" + at(i) + " in " + where + " (first" +
                                  at(term->ellipsis_pos) + "); at most one per term");
      }
      term->has_ellipsis = true;
      term->ellipsis_pos = i;
      i += 2;
      continue;
    }
    if (c == '-') {
      if (i + 1 >= s.size() || s[i + 1] != '>') {
        throw_validation(kOp, "'-'" + at(i) + " is not followed by '>' (the output arrow is '->')");
      }
      if (in_output)
        throw_validation(kOp, "second '->'" + at(i) + "; only one output arrow is allowed");
      in_output = true;
      start_term(parsed.output.emplace());
      ++i;
      continue;
    }
    if (c == '>')
      throw_validation(kOp, "'>'" + at(i) + " without a preceding '-' (the output arrow is '->')");
    throw_validation(kOp, "unexpected character " +
                              (c < 0x80 ? describe_char(s[i]) : "U+" + hex(c)) + at(i) +
                              "; labels are letters, digits and non-ASCII symbols (not "
                              "whitespace or ASCII punctuation)");
  }
  return parsed;
}

std::string letter_name(char32_t c) {
  return encode_utf8(c);
}

// Label ids of code points: a table for ASCII (the common case), a flat hash table for the
// rest (a std::map was a node allocation per label: 300-label networks use CJK symbols);
// counts for the implicit output.
class LabelIds {
 public:
  LabelIds() { ascii_.fill(-1); }
  void add(char32_t c, std::vector<std::string>& names) {
    if (c < 0x80) {
      if (ascii_[c] < 0) ascii_[c] = new_label(c, names);
      ++ascii_count_[c];
      return;
    }
    const std::size_t at = index_.find_or_insert(c, [&] {
      others_.push_back({c, new_label(c, names), 0});
      return others_.size() - 1;
    });
    ++others_[at].count;
  }
  Label find(char32_t c) const {
    if (c < 0x80) return ascii_[c];
    const std::size_t* at = index_.find(c);
    return at ? others_[*at].id : -1;
  }
  std::vector<Label> appearing_once_in_code_point_order() const {
    std::vector<Label> out;
    for (std::size_t c = 0; c < ascii_.size(); ++c)
      if (ascii_count_[c] == 1) out.push_back(ascii_[c]);
    std::vector<Other> sorted = others_;
    std::sort(sorted.begin(), sorted.end(),
              [](const Other& x, const Other& y) { return x.point < y.point; });
    for (const Other& o : sorted)
      if (o.count == 1) out.push_back(o.id);
    return out;
  }

 private:
  struct Other {
    char32_t point;
    Label id;
    int count;
  };

  static Label new_label(char32_t c, std::vector<std::string>& names) {
    names.push_back(letter_name(c));
    return static_cast<Label>(names.size() - 1);
  }

  std::array<Label, 128> ascii_{};
  std::array<int, 128> ascii_count_{};
  std::vector<Other> others_;                 // in order of first appearance
  FlatHashMap<char32_t, std::size_t> index_;  // code point -> its entry in others_
};

void check_operand_count(std::size_t terms, std::size_t operands) {
  if (operands == 0) throw_validation(kOp, "at least one operand is required");
  if (terms != operands) {
    throw_validation(kOp, "the subscripts name " + std::to_string(terms) + " operand(s) but " +
                              std::to_string(operands) + " were given");
  }
}

}  // namespace

bool is_label_code_point(char32_t c) {
  return is_label(c) && c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF);
}

std::string utf8_of(char32_t c) {
  return encode_utf8(c);
}

std::int32_t num_labels(const EinsumExpression& expr) {
  Label top = -1;
  for (const auto& in : expr.inputs)
    for (Label l : in) top = std::max(top, l);
  for (Label l : expr.output) top = std::max(top, l);
  return top + 1;
}

EinsumExpression parse_subscripts(std::string_view subscripts,
                                  std::span<const std::int64_t> ranks) {
  const ParsedSubscripts parsed = split_subscripts(subscripts);
  check_operand_count(parsed.inputs.size(), ranks.size());

  // Ranks against terms; the number of ellipsis dims of each operand.
  std::vector<std::int64_t> ellipsis_dims(ranks.size(), 0);
  std::int64_t broadcast_rank = 0;
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    const Term& t = parsed.inputs[k];
    const auto letters = static_cast<std::int64_t>(t.num_letters());
    const auto who = [k] { return "operand " + std::to_string(k); };  // for errors alone
    if (ranks[k] < 0)
      throw_validation(kOp, who() + " has a negative rank " + std::to_string(ranks[k]));
    if (!t.has_ellipsis && ranks[k] != letters) {
      throw_validation(kOp, who() + ": subscripts '" + parsed.text(t) + "' name " +
                                std::to_string(letters) + " axes but the operand has rank " +
                                std::to_string(ranks[k]));
    }
    if (t.has_ellipsis && ranks[k] < letters) {
      throw_validation(kOp, who() + ": subscripts '" + parsed.text(t) + "' need at least " +
                                std::to_string(letters) + " axes but the operand has rank " +
                                std::to_string(ranks[k]));
    }
    if (t.has_ellipsis) {
      ellipsis_dims[k] = ranks[k] - letters;
      broadcast_rank = std::max(broadcast_rank, ellipsis_dims[k]);
    }
  }

  // Dense ids: labels by first appearance in the inputs, then the broadcast labels.
  EinsumExpression expr;
  expr.inputs.reserve(ranks.size());
  LabelIds ids;
  for (const Term& t : parsed.inputs)
    for (std::size_t i = t.begin; i < t.end; ++i) ids.add(parsed.points[i], expr.label_names);
  if (expr.label_names.size() > kMaxDistinctLabels) {
    throw_validation(kOp, std::to_string(expr.label_names.size()) +
                              " distinct labels; a plan holds at most " +
                              std::to_string(kMaxDistinctLabels));
  }
  const auto first_broadcast = static_cast<Label>(expr.label_names.size());
  for (std::int64_t d = 0; d < broadcast_rank; ++d) {
    expr.broadcast_labels.push_back(first_broadcast + static_cast<Label>(d));
    expr.label_names.push_back(".." + std::to_string(d));
  }

  auto expand = [&](const Term& t, std::int64_t e) {
    std::vector<Label> labels;
    labels.reserve(t.num_letters() + static_cast<std::size_t>(e));
    for (char32_t c : parsed.before(t)) labels.push_back(ids.find(c));
    for (std::int64_t d = broadcast_rank - e; d < broadcast_rank; ++d) {
      labels.push_back(first_broadcast + static_cast<Label>(d));
    }
    for (char32_t c : parsed.after(t)) labels.push_back(ids.find(c));
    return labels;
  };
  for (std::size_t k = 0; k < ranks.size(); ++k)
    expr.inputs.push_back(expand(parsed.inputs[k], ellipsis_dims[k]));

  if (!parsed.output) {
    expr.output = expr.broadcast_labels;
    for (Label id : ids.appearing_once_in_code_point_order()) expr.output.push_back(id);
    return expr;
  }

  const Term& out = *parsed.output;
  std::size_t letter_index = 0;
  for (const auto part : {parsed.before(out), parsed.after(out)}) {
    for (char32_t c : part) {
      const std::size_t pos = parsed.output_letter_pos[letter_index++];
      if (ids.find(c) < 0) {
        throw_validation(
            kOp, "output label '" + letter_name(c) + "'" + at(pos) + " appears in no input");
      }
    }
  }
  if (!out.has_ellipsis && broadcast_rank > 0) {
    throw_validation(kOp, "the output has no '...' but the inputs' ellipses cover " +
                              std::to_string(broadcast_rank) +
                              " dimension(s); add '...' to the output to keep them");
  }
  expr.output = expand(out, out.has_ellipsis ? broadcast_rank : 0);
  return expr;
}

EinsumExpression from_labels(const EinsumLabels& labels, std::span<const std::int64_t> ranks) {
  check_operand_count(labels.inputs.size(), ranks.size());
  EinsumExpression expr;
  FlatHashMap<int, Label> id_of;
  expr.inputs.reserve(ranks.size());
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    const auto& in = labels.inputs[k];
    if (static_cast<std::int64_t>(in.size()) != ranks[k]) {
      throw_validation(kOp, "operand " + std::to_string(k) + ": " + std::to_string(in.size()) +
                                " labels given but the operand has rank " +
                                std::to_string(ranks[k]));
    }
    std::vector<Label> dense;
    dense.reserve(in.size());
    for (int user : in) {
      dense.push_back(id_of.find_or_insert(user, [&] {
        expr.label_names.push_back(std::to_string(user));
        return static_cast<Label>(expr.label_names.size() - 1);
      }));
    }
    expr.inputs.push_back(std::move(dense));
  }
  if (expr.label_names.size() > kMaxDistinctLabels) {
    throw_validation(kOp, std::to_string(expr.label_names.size()) +
                              " distinct labels; a plan holds at most " +
                              std::to_string(kMaxDistinctLabels));
  }
  // Output labels may repeat (diagonal embedding), as in parse_subscripts.
  for (std::size_t a = 0; a < labels.output.size(); ++a) {
    const Label* id = id_of.find(labels.output[a]);
    if (id == nullptr) {
      throw_validation(kOp, "output label " + std::to_string(labels.output[a]) + " (output axis " +
                                std::to_string(a) + ") appears in no input");
    }
    expr.output.push_back(*id);
  }
  return expr;
}

std::vector<std::int64_t> label_sizes(const EinsumExpression& expr, std::span<const Shape> shapes) {
  check_operand_count(expr.inputs.size(), shapes.size());
  const std::int32_t n = num_labels(expr);
  auto name = [&](Label l) {
    return static_cast<std::size_t>(l) < expr.label_names.size()
               ? expr.label_names[static_cast<std::size_t>(l)]
               : std::to_string(l);
  };
  auto where = [](std::size_t k, std::size_t a) {
    return "operand " + std::to_string(k) + " axis " + std::to_string(a);
  };
  // NumPy's rule for every label, lettered or ellipsis: an axis of extent 1 broadcasts against
  // the label's extent elsewhere (the executor reads it with stride 0), while the axes of one
  // operand that repeat a label (a trace or diagonal) must agree exactly, as NumPy requires.
  // sizes[l] = -1 until seen; origin = (operand, axis) that fixed it, for messages.
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(n), -1);
  std::vector<std::pair<std::size_t, std::size_t>> origin(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    const auto& in = expr.inputs[k];
    const Shape& shape = shapes[k];
    if (shape.size() != in.size()) {
      throw_validation(kOp, "operand " + std::to_string(k) + " has rank " +
                                std::to_string(shape.size()) + " but its subscripts name " +
                                std::to_string(in.size()) + " axes");
    }
    for (std::size_t a = 0; a < in.size(); ++a) {
      const std::int64_t extent = shape[a];
      if (extent < 0) {
        throw_validation(kOp, where(k, a) + " has a negative extent " + std::to_string(extent));
      }
      for (std::size_t b = 0; b < a; ++b) {
        if (in[b] == in[a] && shape[b] != extent) {
          throw_validation(kOp, where(k, a) + " (label '" + name(in[a]) + "') has extent " +
                                    std::to_string(extent) + " but axis " + std::to_string(b) +
                                    " of the same operand has extent " + std::to_string(shape[b]) +
                                    " (a label repeated in one operand needs equal extents)");
        }
      }
      const auto l = static_cast<std::size_t>(in[a]);
      auto& size = sizes[l];
      if (size < 0 || (size == 1 && extent != 1)) {
        size = extent;
        origin[l] = {k, a};
        continue;
      }
      if (size == extent || extent == 1) continue;
      const auto [k0, a0] = origin[l];
      throw_validation(kOp, where(k, a) + " (label '" + name(in[a]) + "') has extent " +
                                std::to_string(extent) + " but " + where(k0, a0) + " has extent " +
                                std::to_string(size) + " (only an extent of 1 broadcasts)");
    }
  }
  // Parsing never yields a label without an input axis; a hand-built expression might.
  for (std::int32_t l = 0; l < n; ++l) {
    if (sizes[static_cast<std::size_t>(l)] < 0) {
      throw_validation(kOp, "label '" + name(l) + "' has no input axis to give it a size");
    }
  }
  return sizes;
}

}  // namespace tenferro::einsum_internal
