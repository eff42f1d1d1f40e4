// The page around the sections: head (no script may run, nothing may load),
// inline CSS, the heading, the table of contents, and the helpers every
// section uses so they all look alike.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ssdprobe {

struct PageSection {
  std::string id;       // the element id, also the table of contents' link
  std::string heading;  // plain text
  std::string body;     // HTML
};

// The whole document. `title` and `subtitle` are plain text (escaped here).
std::string html_page(std::string_view title, std::string_view subtitle, const std::vector<PageSection>& sections);

// A paragraph that says why a part is empty ("no audit: ..."); `why` is HTML.
std::string empty_note(std::string_view why);

// <tr> of header cells and of data cells; the cells are HTML.
std::string header_row(const std::vector<std::string>& cells);
std::string data_row(const std::vector<std::string>& cells);
// A <table> with `head` (header cells; none when empty) and `rows` (made by data_row); an
// empty_note(`when_empty`) instead when there are no rows.
std::string html_table(std::string_view css_class, const std::vector<std::string>& head,
                       const std::vector<std::string>& rows, std::string_view when_empty);

// A shell command as inline code (escaped here).
std::string command_code(std::string_view command);

}  // namespace ssdprobe
