#ifndef ADAL2MSAL_CLIBXML2_SHIM_H
#define ADAL2MSAL_CLIBXML2_SHIM_H
/*
 * Debian's libxml2 is built with ICU: <libxml/encoding.h> then includes the system <unicode/ucnv.h>, whose
 * UErrorCode clashes with Foundation's _FoundationICU in a clean build. We never touch the ICU fields of
 * xmlCharEncodingHandler (whose layout this changes), so keeping ICU out of the headers is safe.
 */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#endif
