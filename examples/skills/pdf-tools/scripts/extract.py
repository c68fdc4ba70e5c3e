"""Print the text of a PDF, or write its tables as CSV files (--tables). Needs pdfplumber."""
import csv
import sys

import pdfplumber


def main(path: str, tables: bool) -> None:
    with pdfplumber.open(path) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            if not tables:
                print(page.extract_text() or f"[page {number}: no text]")
                continue
            for index, table in enumerate(page.extract_tables(), start=1):
                name = f"page{number}-table{index}.csv"
                with open(name, "w", newline="", encoding="utf-8") as out:
                    csv.writer(out).writerows(table)
                print(name)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: extract.py FILE.pdf [--tables]")
    main(sys.argv[1], "--tables" in sys.argv[2:])
