import { describe, expect, it } from "vitest";
import { htmlPage, htmlText, nextElement, textAfter } from "../../src/reading/html-page.js";

const cellOf = (fragment: string) => htmlPage(`<table><tr><td>${fragment}</td></tr></table>`).rows()[0]?.[0];

describe("htmlPage: a page as its readers see it", () => {
  it("gives a cell the fragment's lines joined by spaces, for plain, spaced, tagged and entity-laden cells", () => {
    const fragments = [
      "Payer Name",
      "የከፋይ ስም/Payer Name",
      "  Dawit   Mekonnen\tBekele \n",
      "Sixty Birr &amp; Zero Cents",
      "ኢትዮ ቴሌኮም/Ethio telecom<br>TIN 0000030603<br>VAT Reg No 012700",
      "<span>60.00</span>\u00a0Birr",
      "a\u00a0b",
      "\ttab first",
      "last space ",
    ];
    for (const fragment of fragments) {
      expect(cellOf(fragment), JSON.stringify(fragment)).toBe(htmlPage(fragment).lines().join(" "));
    }
    expect(cellOf("   ")).toBe("");
  });

  it("decodes named, numeric and semicolon-less entities", () => {
    const page = htmlPage(
      "<p>SARA &amp; SONS</p><p>&#4661;&#x1208;&#4666;</p><p>a&nbsp;b &copy2026 &colon; AT&T</p>",
    );
    expect(page.lines()).toEqual(["SARA & SONS", "ስለሺ", "a b ©2026 : AT&T"]);
  });

  it("leaves out comments, scripts and styles, and an unclosed comment to the end", () => {
    const page = htmlPage(
      '<table><!-- <tr><td>Amount</td><td>9</td></tr> --><tr><td>Payer<!-- x --></td><td>Abebe<script>var c = "<td>8</td>";</script><STYLE>td::after{content:"<td>"}</STYLE></td></tr></table><p>end</p><!-- <table><tr><td>7</td></tr></table>',
    );
    expect(page.rows()).toEqual([["Payer", "Abebe"]]);
    expect(page.text()).toBe("Payer Abebe end");
  });

  it("reads tags in any case and attributes holding '>' or tags", () => {
    const page = htmlPage(
      `<TABLE><TR><TD TITLE="a > b">Payer</TD><TD data-x='<td>x</td>'>Abebe</TD></TR></TABLE>`,
    );
    expect(page.rows()).toEqual([["Payer", "Abebe"]]);
  });

  it("closes cells and rows left open, as browsers do, whether a <td> or a <th> follows", () => {
    expect(htmlPage("<table><tr><td>Payer<td>Abebe<tr><th>Status<td>Completed</table>").rows()).toEqual([
      ["Payer", "Abebe"],
      ["Status", "Completed"],
    ]);
    expect(htmlPage("<table><tr><td>Amount<th>100 Birr</tr></table>").rows()).toEqual([
      ["Amount", "100 Birr"],
    ]);
    expect(htmlPage("<table><td>Payer</td><td>Abebe</td></table>").rows()).toEqual([["Payer", "Abebe"]]);
  });

  it("keeps a table nested in a cell out of the cell's text: its rows are its own", () => {
    const page = htmlPage(
      "<table><tr><td>Label<table><tr><td>inner</td></tr></table>tail</td><td>Value</td></tr></table>",
    );
    expect(page.rows()).toEqual([["Label tail", "Value"], ["inner"]]);
  });

  it("breaks lines at blocks, cells, <br>, the end of inline labels and newlines in the text", () => {
    const page = htmlPage(
      "<title>Receipt</title><div>Total<div>ETB 10</div></div><p><strong>Amount:</strong> 1,250.00 <span>Birr</span> paid</p>Payer\nAbebe",
    );
    expect(page.lines()).toEqual([
      "Receipt",
      "Total",
      "ETB 10",
      "Amount:",
      "1,250.00 Birr",
      "paid",
      "Payer",
      "Abebe",
    ]);
  });

  it("finds elements, the element after one, and the rest of a label's line", () => {
    const page = htmlPage(
      "<dl><dt>Ref.</dt> <dd>FT1</dd></dl><p><b>Sender</b>: Abebe <i>K.</i><br><b>Receiver</b>: Sara</p>",
    );
    const [dt] = page.elements("dt");
    expect(dt && nextElement(dt)?.name).toBe("dd");
    const labels = page.elements("b");
    const stop = new Set(["br", "b"]);
    expect(labels.map((b) => [htmlText(b), textAfter(b, stop)])).toEqual([
      ["Sender", ": Abebe K."],
      ["Receiver", ": Sara"],
    ]);
    expect(page.elements().map((element) => element.name)).toEqual([
      "dl",
      "dt",
      "dd",
      "p",
      "b",
      "i",
      "br",
      "b",
    ]);
  });
});
