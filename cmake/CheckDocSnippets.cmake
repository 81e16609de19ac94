# cmake -DDOC=<page.md> -DSOURCE=<file>[|<file>...] -P CheckDocSnippets.cmake
#
# Passes iff every ```cpp block of DOC appears in one of the SOURCE files as consecutive
# lines (leading and trailing blanks of each line ignored): the page shows only code that
# the project compiles and runs.
cmake_minimum_required(VERSION 3.24)

foreach(var IN ITEMS DOC SOURCE)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "CheckDocSnippets.cmake: ${var} is not set")
  endif()
endforeach()

# The file's lines, each stripped, joined by "\n" (and with a "\n" at each end, so that a
# block matches whole lines only). Semicolons and square brackets are escaped so that they
# survive CMake lists (an unbalanced "[" would join the list's elements up to the next "]",
# and the blocks in between would go unchecked).
function(stripped_lines path out)
  file(STRINGS "${path}" lines)
  set(text "\n")
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    string(APPEND text "${line}\n")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

string(REPLACE "|" ";" source_files "${SOURCE}")
set(source_text "")
# A scratch file of this page's own: the docs.snippets.* tests run in parallel in one
# directory, and a shared name let one test read another's source (a failure seen in CI).
get_filename_component(page_name "${DOC}" NAME_WE)
set(scratch "${CMAKE_CURRENT_BINARY_DIR}/snippet_source.${page_name}.tmp")
foreach(file IN LISTS source_files)
  file(READ "${file}" raw_source)
  string(REPLACE ";" "<semicolon>" raw_source "${raw_source}")
  string(REPLACE "[" "<lbracket>" raw_source "${raw_source}")
  string(REPLACE "]" "<rbracket>" raw_source "${raw_source}")
  file(WRITE "${scratch}" "${raw_source}")
  stripped_lines("${scratch}" text)
  string(APPEND source_text "${text}")
endforeach()

file(READ "${DOC}" raw_doc)
string(REPLACE ";" "<semicolon>" raw_doc "${raw_doc}")
string(REPLACE "[" "<lbracket>" raw_doc "${raw_doc}")
string(REPLACE "]" "<rbracket>" raw_doc "${raw_doc}")
string(REPLACE "\n" ";" doc_lines "${raw_doc}")

set(in_block FALSE)
set(blocks 0)
set(missing 0)
foreach(line IN LISTS doc_lines)
  string(STRIP "${line}" stripped)
  if(NOT in_block AND stripped STREQUAL "```cpp")
    set(in_block TRUE)
    set(block "\n")
  elseif(in_block AND stripped STREQUAL "```")
    set(in_block FALSE)
    math(EXPR blocks "${blocks} + 1")
    string(FIND "${source_text}" "${block}" at)
    if(at EQUAL -1)
      math(EXPR missing "${missing} + 1")
      string(REPLACE "<semicolon>" ";" shown "${block}")
      string(REPLACE "<lbracket>" "[" shown "${shown}")
      string(REPLACE "<rbracket>" "]" shown "${shown}")
      message(SEND_ERROR "${DOC}: code block ${blocks} is not in ${SOURCE}:${shown}")
    endif()
  elseif(in_block)
    string(APPEND block "${stripped}\n")
  endif()
endforeach()
file(REMOVE "${scratch}")
if(blocks EQUAL 0)
  message(FATAL_ERROR "${DOC} has no ```cpp block")
endif()
if(missing GREATER 0)
  message(FATAL_ERROR "${missing} of ${blocks} code blocks of ${DOC} are not in ${SOURCE}")
endif()
message(STATUS "all ${blocks} code blocks of ${DOC} are in ${SOURCE}")
