// The man page, roff for groff's man macros (with its .SY/.YS synopsis
// extension, which mandoc reads too): every section that names an option
// or a command is walked from the CLI11 app, so an option added to a
// command appears here without touching this file. Only the examples, the
// files and the see-also list are written out, as they are prose.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <sstream>
#include <vector>

#include "cli/help_output.h"
#include "cli/option_facts.h"
#include "cli/options.h"
#include "ssdprobe_version.h"

namespace ssdprobe {
namespace {

// roff: a backslash is \e, a line may not start with a control character,
// and dashes are \- so that options copy and search as ASCII hyphens.
std::string roff(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == '\\' ? std::string("\\e") : std::string(1, c);
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

std::string roff_dashes(const std::string& text) {
  std::string out;
  for (const char c : roff(text)) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

std::string bold(const std::string& text) { return "\\fB" + roff_dashes(text) + "\\fR"; }
std::string italic(const std::string& text) { return "\\fI" + roff(text) + "\\fR"; }

constexpr const char* kEllipsis = "\\[u2026]";

// Paragraphs of a help text (blank-line separated), each joined into one
// line: roff fills them itself.
std::vector<std::string> paragraphs(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream lines(text);
  std::string line, paragraph;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(' ') == std::string::npos) {
      if (!paragraph.empty()) out.push_back(paragraph);
      paragraph.clear();
      continue;
    }
    paragraph += (paragraph.empty() ? "" : " ") + line.substr(line.find_first_not_of(' '));
  }
  if (!paragraph.empty()) out.push_back(paragraph);
  return out;
}

// An option's value as the reader types it: literal words bold
// ("png|svg"), placeholders italic ("FILE|-" is FILE or a literal -).
std::string value_text(const CLI::Option* o) {
  std::vector<std::string> parts = value_choices(o);
  if (parts.empty()) {
    std::istringstream in(value_name(o));
    for (std::string part; std::getline(in, part, '|');) parts.push_back(part);
  }
  std::vector<std::string> shown;
  for (const std::string& part : parts) shown.push_back(is_literal(part) ? bold(part) : italic(part));
  // "\:" after each bar: where troff may break a long list of values (it
  // prints nothing), so a synopsis line never overflows the page.
  return fmt::format("{}", fmt::join(shown, "|\\:"));
}

// "--grid read|write" with an unbreakable space, so roff never separates
// an option from its value when it fills the synopsis.
std::string option_with_value(const CLI::Option* o, const std::string& name) {
  return takes_value(o) ? bold(name) + "\\ " + value_text(o) : bold(name);
}

std::string operand_text(const CLI::Option* p) {
  const std::string text = italic(p->get_name(true)) + (repeats(p) ? kEllipsis : "");
  return p->get_required() ? text : "[" + text + "]";
}

// Whether the command's last operand repeats (RESULT.json...): an operand
// that repeats takes every word after the options, so it is the last.
bool repeats_operand(const CLI::App& app) {
  const std::vector<const CLI::Option*> operands = positionals_of(app);
  return !operands.empty() && repeats(operands.back());
}

// One synopsis: the command, every option it takes (optional ones in
// brackets) and its operands.
std::string synopsis(const std::string& command, const CLI::App& app) {
  std::string out = fmt::format(".SY \"{}\"\n", command);
  for (const CLI::Option* o : shown_options(app)) {
    if (o == app.get_help_ptr()) continue;  // every command has it; OPTIONS lists it
    const std::string text = option_with_value(o, long_spelling(o));
    out += (o->get_required() ? text : "[" + text + "]") + "\n";
  }
  for (const CLI::Option* p : positionals_of(app)) out += operand_text(p) + "\n";
  return out + ".YS\n";
}

void man_options(std::string& out, const CLI::App& app) {
  for (const CLI::Option* p : positionals_of(app)) {
    out += fmt::format(".TP\n{}\n{}\n", operand_text(p), roff(p->get_description()));
  }
  for (const CLI::Option* o : shown_options(app)) {
    std::vector<std::string> names;
    for (const auto& n : spellings(o)) names.push_back(bold(n));
    std::string head = fmt::format("{}", fmt::join(names, ", "));
    if (takes_value(o)) head += " " + value_text(o);
    out += fmt::format(".TP\n{}\n{}\n", head, roff(o->get_description()));
  }
}

// The footer paragraphs of a command: its exit codes, then the rest.
void footer(std::string& out, const std::string& text, const char* exit_heading) {
  for (const std::string& paragraph : paragraphs(text)) {
    const bool exit_codes = paragraph.rfind("Exit codes:", 0) == 0;
    out += exit_codes && exit_heading != nullptr ? exit_heading : ".PP\n";
    out += roff(paragraph) + "\n";
  }
}

struct Example {
  const char* what;
  const char* command;
};

// Real command lines, one per kind of use; tests/docs/man_page.sh checks
// that every option they use is one their command takes.
const std::vector<Example>& examples() {
  static const std::vector<Example> list{
      {"Measure a drive read-only (no write is ever issued) and print the report:", "ssdprobe /dev/nvme0n1"},
      {"Try the same on a simulated drive, with a 10 second budget of virtual time:",
       "ssdprobe --budget 10 sim:fresh-16k"},
      {"Also find the write unit and the erase block, saving the result document. ssdprobe asks before it "
       "writes, saves the window it writes to a journal first and restores it after:",
       "ssdprobe --write --json nvme0n1.json /dev/nvme0n1"},
      {"Check the partitions and filesystems on a disk against the units that run measured; exit 8 on an "
       "error-severity finding:",
       "ssdprobe audit --units-from nvme0n1.json /dev/nvme0n1"},
      {"Draw the write grid of that run as a heatmap (gnuplot):",
       "ssdprobe plot --grid write -o nvme0n1-write.png nvme0n1.json"},
      {"Write a fio job file that times that run's key cells again with fio (run it with fio's read-only switch, "
       "as its first lines say):",
       "ssdprobe fio-jobs nvme0n1.json -o nvme0n1.fio"},
      {"Run again with the options that run recorded (never --write), with a longer budget:",
       "ssdprobe --replay nvme0n1.json --budget 120"},
      {"Compare a fleet's results folder and write a self-contained HTML report:",
       "ssdprobe compare --html fleet.html results/"},
      {"Put back what an interrupted --write run saved (the run names its journal):",
       "ssdprobe restore /var/lib/ssdprobe/journal/nvme0n1-20260101T120000Z-4242.ssdpj"},
  };
  return list;
}

void examples_section(std::string& out) {
  out += ".SH EXAMPLES\n";
  for (const Example& e : examples()) {
    out += fmt::format(".PP\n{}\n.PP\n.RS 4\n.EX\n{}\n.EE\n.RE\n", roff(e.what), roff_dashes(e.command));
  }
}

std::string journal_default() {
  for (const OptionSpec& spec : option_table()) {
    if (std::string(spec.json_key) == "journal_dir") return spec.default_text;
  }
  return "";
}

// Where --write keeps the only copy of the user's data, and the index of
// pending journals (src/safety/journal_index.cc).
void files_section(std::string& out) {
  out += ".SH FILES\n";
  out += fmt::format(
      ".TP\n{}\n"
      "The journals of \\fB\\-\\-write\\fR runs (\\fB\\-\\-journal\\fR changes the directory): "
      "each \\fI*.ssdpj\\fR file holds the original content of the window a run writes to, "
      "from before its first write until the content is restored and verified. "
      "A run that was killed leaves its journal here, for \\fBssdprobe restore\\fR.\n",
      bold(journal_default() + "/"));
  out += fmt::format(
      ".TP\n{}\n"
      "The index of pending journals, wherever their \\fB\\-\\-journal\\fR directory is, for root; other users' "
      "is \\fI$XDG_STATE_HOME/ssdprobe/pending\\fR (\\fI~/.local/state/ssdprobe/pending\\fR), and "
      "\\fI$SSDPROBE_STATE_DIR/pending\\fR when that is set. "
      "Every command refuses to treat a window listed there as the drive's original content.\n",
      bold("/var/lib/ssdprobe/pending/"));
  out += ".TP\n\\fIRESULT.json\\fR\n"
         "The result document a run, \\fBinfo\\fR or \\fBaudit\\fR writes with \\fB\\-\\-json\\fR "
         "\\fIFILE\\fR (schema ssdprobe/1; written to \\fIFILE.partial\\fR and renamed, so no half-written "
         "document is left): what \\fBaudit \\-\\-units\\-from\\fR, \\fBplot\\fR and \\fBcompare\\fR read.\n";
}

void see_also_section(std::string& out) {
  const std::vector<std::string> pages{"fio(1)",   "nvme(1)",   "smartctl(8)", "parted(8)", "sfdisk(8)",
                                       "lsblk(8)", "blockdev(8)", "mkfs.xfs(8)", "mkfs.ext4(8)", "lvm(8)",
                                       "gnuplot(1)"};
  std::vector<std::string> refs;
  for (const std::string& page : pages) {
    const size_t open = page.find('(');
    refs.push_back(fmt::format(".BR {} {}", roff(page.substr(0, open)), page.substr(open)));
  }
  out += ".SH \"SEE ALSO\"\n" + fmt::format("{}", fmt::join(refs, " ,\n")) + "\n";
}

}  // namespace

std::string man_page(const CLI::App& app) {
  const std::string name = app.get_name();
  std::string out = fmt::format(".TH SSDPROBE 1 \"\" \"{} {}\" \"User Commands\"\n", name, SSDPROBE_VERSION);
  // Three dots where the output device has no ellipsis (man in the C locale).
  out += ".if !c\\[u2026] .char \\[u2026] ...\n";
  std::vector<std::string> description = paragraphs(app.get_description());
  std::string summary = description.empty() ? "" : description.front();
  if (summary.rfind(name + ": ", 0) == 0) summary = summary.substr(name.size() + 2);
  if (!summary.empty() && summary.back() == '.') summary.pop_back();
  out += fmt::format(".SH NAME\n{} \\- {}\n", name, roff(summary));
  out += ".SH SYNOPSIS\n" + synopsis(name, app);
  for (const CLI::App* sub : commands_of(app)) out += synopsis(name + " " + sub->get_name(), *sub);
  out += ".SH DESCRIPTION\n";
  for (size_t i = 1; i < description.size(); ++i) out += fmt::format("{}\n.PP\n", roff(description[i]));
  out += fmt::format("Options may stand before or after a subcommand. Each subcommand is described under "
                     "\\fBCOMMANDS\\fR; \\fB{} \\fR\\fIcommand\\fR \\fB\\-\\-help\\fR prints its options.\n",
                     name);
  out += ".SH OPTIONS\n";
  man_options(out, app);
  out += ".SH COMMANDS\n";
  for (const CLI::App* sub : commands_of(app)) {
    const std::string arguments = roff_dashes(arguments_of(*sub, "")) + (repeats_operand(*sub) ? kEllipsis : "");
    out += fmt::format(".SS \"{} {} {}\"\n{}\n", name, sub->get_name(), arguments, roff(sub->get_description()));
    man_options(out, *sub);
    if (sub->get_footer() != app.get_footer()) footer(out, sub->get_footer(), nullptr);
  }
  footer(out, app.get_footer(), ".SH \"EXIT STATUS\"\n");
  files_section(out);
  examples_section(out);
  see_also_section(out);
  return out;
}

}  // namespace ssdprobe
