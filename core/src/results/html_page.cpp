// The HTML reports' frame: the inline style sheet (light and dark), the inline script (sorting and
// the variant filter; the page reads the same without it), and plain tables.
#include "results/html_page.hpp"

#include <fmt/format.h>

#include "results/html_text.hpp"

namespace cudalab::host {

namespace {

// Colours as variables, so that the dark scheme is one block; the plots keep their white card in both.
const char* const style_sheet = R"css(
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--head:#f6f8fa;
--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--link:#0969da;--mark:#fff8c5}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;
--head:#151b23;--ok:#3fb950;--bad:#f85149;--warn:#d29922;--link:#4493f8;--mark:#3b2e00}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1240px;padding:1rem;background:var(--bg);color:var(--fg);
font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
a{color:var(--link)}
h1,h2,h3,p,li,dd,figcaption,summary,.callout{overflow-wrap:anywhere}
h1{font-size:1.6rem;margin:.2rem 0 .6rem}h2{font-size:1.3rem;margin:2rem 0 .4rem;border-bottom:1px solid var(--line)}
h3{font-size:1.05rem;margin:1.2rem 0 .3rem}
code,pre{font-family:ui-monospace,"SFMono-Regular","DejaVu Sans Mono",Menlo,monospace;font-size:.88em}
pre{background:var(--head);border:1px solid var(--line);border-radius:6px;padding:.5rem .7rem;
white-space:pre-wrap;overflow-wrap:anywhere}
.muted{color:var(--muted)}.ok{color:var(--ok)}.bad{color:var(--bad)}.warn{color:var(--warn)}
.box{overflow-x:auto;max-width:100%;margin:.4rem 0 1rem}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{padding:.25rem .55rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top;white-space:nowrap}
th{background:var(--head);font-weight:600}
.num{text-align:right}
th button{all:inherit;cursor:pointer;padding:0}
th[aria-sort=ascending] button::after{content:" \25B2"}th[aria-sort=descending] button::after{content:" \25BC"}
tr.note td{white-space:normal;color:var(--muted);border-top:0;padding-left:1.6rem;max-width:60rem}
tbody.row-bad td:first-child{box-shadow:inset 3px 0 var(--bad)}
tbody.row-warn td:first-child{box-shadow:inset 3px 0 var(--warn)}
.swatch{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:.35em;vertical-align:-.05em}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.4rem 0 1rem}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
figure.plot{margin:.6rem 0 1rem;background:#fff;border:1px solid var(--line);border-radius:6px;padding:.4rem}
figure.plot svg{display:block;max-width:100%;height:auto}
figure.plot figcaption{color:#59636e;font-size:.85rem;padding:.2rem .3rem 0}
.callout{border-left:4px solid var(--warn);background:var(--mark);padding:.4rem .8rem;margin:.6rem 0}
.callout.bad{border-left-color:var(--bad)}
.score{font-size:2rem;font-weight:700}
.bar{display:inline-block;height:.7em;background:var(--link);border-radius:2px;vertical-align:0}
.bar.rest{opacity:.25}
mark{background:var(--mark);color:inherit}
nav.toc ul{columns:2 20rem;padding-left:1.2rem}
label.filter{display:block;margin:.3rem 0}
details{margin:.3rem 0 .8rem}summary{cursor:pointer;color:var(--muted)}
)css";

// Sorting and filtering only: the tables are complete without it. Every text it writes goes in through
// textContent, never as markup.
const char* const script = R"js(
(function(){'use strict';
var each=function(list,f){Array.prototype.forEach.call(list,f);};
function key(group,i,numeric){var cell=group.rows[0]&&group.rows[0].cells[i];
if(!cell)return numeric?NaN:'';
if(!numeric)return cell.textContent.trim();
var s=cell.getAttribute('data-sort');return s===null||s===''?NaN:parseFloat(s);}
function sortBy(table,th,i){var numeric=th.classList.contains('num');
var up=th.getAttribute('aria-sort')!=='ascending';
each(table.tHead.rows[0].cells,function(h){h.removeAttribute('aria-sort');});
th.setAttribute('aria-sort',up?'ascending':'descending');
var groups=Array.prototype.slice.call(table.tBodies);
groups.sort(function(a,b){var x=key(a,i,numeric),y=key(b,i,numeric);
if(numeric){if(isNaN(x))return isNaN(y)?0:1;if(isNaN(y))return -1;return up?x-y:y-x;}
var c=x.localeCompare(y,undefined,{numeric:true});return up?c:-c;});
groups.forEach(function(g){table.appendChild(g);});}
each(document.querySelectorAll('table.sortable'),function(table){
each(table.tHead.rows[0].cells,function(th,i){var b=document.createElement('button');b.type='button';
while(th.firstChild)b.appendChild(th.firstChild);th.appendChild(b);
b.addEventListener('click',function(){sortBy(table,th,i);});});});
each(document.querySelectorAll('table[data-filter=variant]'),function(table){var names=[];
each(table.tBodies,function(g){var v=g.getAttribute('data-variant');if(v!==null&&names.indexOf(v)<0)names.push(v);});
if(names.length<2)return;
var label=document.createElement('label');label.className='filter';
label.appendChild(document.createTextNode('Show variant '));
var select=document.createElement('select');var all=document.createElement('option');all.value='';
all.textContent='all';select.appendChild(all);
names.forEach(function(n){var o=document.createElement('option');o.value=n;o.textContent=n;select.appendChild(o);});
select.addEventListener('change',function(){each(table.tBodies,function(g){
g.hidden=select.value!==''&&g.getAttribute('data-variant')!==select.value;});});
label.appendChild(select);var box=table.parentNode;box.parentNode.insertBefore(label,box);});
})();
)js";

}  // namespace

std::string html_document(const std::string& title, const std::string& body) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"cudalab\">\n<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n{}"
      "<script>{}</script>\n</body>\n</html>\n",
      html_escape(title), style_sheet, body, script);
}

html_cell text_cell(const std::string& text, std::optional<double> number) { return {html_escape(text), number}; }

html_cell markup_cell(std::string html, std::optional<double> number) { return {std::move(html), number}; }

html_table::html_table(std::string id, std::vector<html_column> columns, bool sortable, bool filter_by_variant)
    : id_(std::move(id)), columns_(std::move(columns)), sortable_(sortable), filter_(filter_by_variant) {}

void html_table::add_row(const std::vector<html_cell>& cells, const std::string& variant, const std::string& mark,
                         const std::string& note) {
  body_ += "<tbody";
  if (!mark.empty()) body_ += " class=\"row-" + html_escape(mark) + "\"";
  if (filter_) body_ += " data-variant=\"" + html_escape(variant) + "\"";
  body_ += "><tr>";
  for (std::size_t i = 0; i < cells.size() && i < columns_.size(); ++i) {
    const html_cell& c = cells[i];
    std::string classes = columns_[i].numeric ? "num" : "";
    if (!c.css_class.empty()) classes += (classes.empty() ? "" : " ") + c.css_class;
    body_ += "<td";
    if (!classes.empty()) body_ += " class=\"" + html_escape(classes) + "\"";
    if (c.number) body_ += fmt::format(" data-sort=\"{:.9g}\"", *c.number);
    if (!c.title.empty()) body_ += " title=\"" + html_escape(c.title) + "\"";
    body_ += ">" + c.html + "</td>";
  }
  body_ += "</tr>";
  if (!note.empty()) body_ += fmt::format("<tr class=\"note\"><td colspan=\"{}\">{}</td></tr>", columns_.size(), note);
  body_ += "</tbody>\n";
  ++rows_;
}

std::string html_table::str() const {
  std::string out = "<div class=\"box\"><table id=\"" + html_escape(id_) + "\"";
  if (sortable_) out += " class=\"sortable\"";
  if (filter_) out += " data-filter=\"variant\"";
  out += ">\n<thead><tr>";
  for (const html_column& c : columns_) {
    out += c.numeric ? "<th class=\"num\"" : "<th";
    if (!c.title.empty()) out += " title=\"" + html_escape(c.title) + "\"";
    out += " scope=\"col\">" + html_escape(c.header) + "</th>";
  }
  return out + "</tr></thead>\n" + body_ + "</table></div>\n";
}

}  // namespace cudalab::host
