# cmake -DINPUT=file -DOUTPUT=file.cc -DSYMBOL=name -DNAMESPACE=ns -P embed_text.cmake
# Writes a C++ file defining `std::string_view ns::name()` that returns INPUT's text: a file
# that is its own source (the HTML viewer's script) is compiled into the library as it is.
file(READ ${INPUT} text)
set(delimiter "onyx_embed")
string(FIND "${text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} holds the raw string delimiter )${delimiter}\"")
endif()
file(WRITE ${OUTPUT}.new
  "// Generated from ${INPUT} by cmake/embed_text.cmake; edit that file instead.\n"
  "#include <string_view>\n\n"
  "namespace ${NAMESPACE} {\n\n"
  "std::string_view ${SYMBOL}() {\n"
  "  static constexpr std::string_view kText = R\"${delimiter}(${text})${delimiter}\";\n"
  "  return kText;\n"
  "}\n\n"
  "}  // namespace ${NAMESPACE}\n")
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
