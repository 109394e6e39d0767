<?xml version="1.0" encoding="UTF-8"?>
<!--
  archive.xsl: a page of the archive of runs (OUT/archive/page-<k>.html,
  page 1 the oldest runs; OUT/archive/index.html the newest page).  Input:
  an <annotation> built by src/pages/archpages.c: the page's runs, newest first,
  and the pages around it.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:import href="common.xsl"/>

  <xsl:variable name="a" select="/page/annotation"/>

  <xsl:template match="/">
    <xsl:call-template name="page">
      <xsl:with-param name="title" select="$a/title"/>
      <xsl:with-param name="description"
                      select="concat($a/archive/entry[1]/@date, ' — ', $a/archive/entry[1]/@host, ': ', $a/archive/entry[1]/@answer)"/>
      <xsl:with-param name="body">
        <article>
          <h1><xsl:value-of select="$a/title"/></h1>
          <xsl:call-template name="pages"/>
          <nav class="archive" aria-label="Archive of runs">
            <ul>
              <xsl:for-each select="$a/archive/entry">
                <li>
                  <a href="{@href}"><xsl:value-of select="@date"/> — <xsl:value-of select="@host"/></a>
                  <br/><span class="answer"><xsl:value-of select="@answer"/></span>
                </li>
              </xsl:for-each>
            </ul>
          </nav>
          <xsl:call-template name="pages"/>
        </article>
      </xsl:with-param>
    </xsl:call-template>
  </xsl:template>

  <xsl:template name="pages">
    <p class="pages">
      <xsl:text>Page </xsl:text><xsl:value-of select="$a/@page"/>
      <xsl:text> of </xsl:text><xsl:value-of select="$a/@pages"/>
      <xsl:if test="$a/@newer">
        <xsl:text> · </xsl:text><a href="{$a/@newest}">newest</a>
        <xsl:text> · </xsl:text><a href="{$a/@newer}" rel="prev">newer runs</a>
      </xsl:if>
      <xsl:if test="$a/@older">
        <xsl:text> · </xsl:text><a href="{$a/@older}" rel="next">older runs</a>
        <xsl:text> · </xsl:text><a href="{$a/@oldest}">oldest</a>
      </xsl:if>
    </p>
  </xsl:template>
</xsl:stylesheet>
